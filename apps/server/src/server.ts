import { buildApp } from './app.ts';
import { ConfigError, parseConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/demo.ts';
import { prepareDatabase, StartError } from './start.ts';

/** Starts the product: config → database → migrations → (demo seed) → listen. */
async function main() {
  let config;
  try {
    config = parseConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const db = createDatabase(config.database);
  let seeded: boolean;
  try {
    ({ seeded } = await prepareDatabase(config, db));
  } catch (e) {
    if (!(e instanceof StartError)) throw e;
    console.error(e.message);
    await db.destroy();
    process.exit(2);
  }
  const app = await buildApp({ config, db });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // First out of the balancer's rotation (readiness 503), still serving what it sends meanwhile;
    // then stop accepting, let in-flight calls finish, and close the database.
    app.beginShutdown();
    await new Promise((r) => setTimeout(r, config.SHUTDOWN_DRAIN_SECONDS * 1000));
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await app.close();
      await db.destroy();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Jobs run once the server listens: every plugin is loaded by then, so a job due at start (the
  // storage accrual after a long stop) can no longer hold up their loading past its timeout and end
  // the process (issue 38 row 8). Until it has started, the instance serves and enqueues.
  await app.jobs.start();
  const where = config.database.dialect === 'sqlite' ? config.database.file : 'PostgreSQL';
  const lines = [
    '',
    `Console:  http://localhost:${config.PORT}/home/`,
    `API docs: http://localhost:${config.PORT}/api/docs`,
    `Database: ${where}`,
  ];
  if (config.demoSeed) {
    lines.push(`Demo accounts${seeded ? ' (created now)' : ''}, password ${DEMO_PASSWORD}:`);
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.name.padEnd(9)} ${a.role}`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
