import type { Config } from './config.ts';
import { type Database, startDatabase } from './db/database.ts';
import { withDatabaseLock } from './db/dialect.ts';
import { migrateToLatest, pendingMigrations } from './db/migrate.ts';
import { standbys, syncStandbyWarning } from './db/replication.ts';
import { loadSecretKey, secretBox } from './lib/secret-box.ts';
import { seedDemo } from './seed/demo.ts';
import { seedDemoDeclarations } from './seed/export-declarations.ts';
import { seedDemoJdAuthorize } from './seed/jd-authorize.ts';

/** A start that cannot go on, with what to do about it (printed as it is, no stack). */
export class StartError extends Error {}

/**
 * What a start does to the database before the app is built: migrations (unless
 * MIGRATE_ON_START=false, when they must have been run by `npm run migrate`), then the demo data
 * when DEMO_SEED is on. Several instances may start at once on one PostgreSQL database: the
 * seed checks for the demo users and writes them under a database lock, so exactly one start
 * writes the demo data and the others find it. `seeded`: this start wrote it.
 */
export async function prepareDatabase(
  config: Config,
  db: Database,
  opts: {
    now?: Date;
    /** Tests: fewer demo orders. */ orders?: number;
    /** Where a start warning goes (before the app's logger exists): stderr. */ warn?: (message: string) => void;
  } = {},
): Promise<{ seeded: boolean }> {
  const now = opts.now ?? new Date();
  // Issue 38 row 9: a `web` instance on SQLite waited for a worker that could never share its
  // queue (the embedded database belongs to one process), and every import and download waited.
  if (config.database.dialect === 'sqlite' && config.SERVER_ROLE !== 'all')
    throw new StartError(
      `SERVER_ROLE=${config.SERVER_ROLE} needs PostgreSQL (DATABASE_URL=postgres://…): the embedded SQLite database ` +
        'belongs to one process, which serves the console and runs the jobs. Leave SERVER_ROLE unset (all) on SQLite.',
    );
  // Issue 38 row 3: migrations and the seed's lock hold session locks, on DATABASE_DIRECT_URL.
  const direct = startDatabase(config.database, db);
  try {
    return await prepareOn(config, direct, now, opts.orders, opts.warn ?? ((m) => console.warn(`warning: ${m}`)));
  } finally {
    if (direct !== db) await direct.destroy();
  }
}

async function prepareOn(
  config: Config,
  db: Database,
  now: Date,
  orders: number | undefined,
  warn: (message: string) => void,
): Promise<{ seeded: boolean }> {
  if (config.MIGRATE_ON_START) await migrateToLatest(db);
  else {
    const pending = await pendingMigrations(db);
    if (pending.length)
      throw new StartError(
        `MIGRATE_ON_START is false and ${pending.length} migration(s) have not run (${pending.slice(0, 3).join(', ')}${pending.length > 3 ? ', …' : ''}): run \`npm run migrate\` first.`,
      );
  }
  if (config.database.dialect === 'postgres') {
    // Issue 38 item 5: standbys, none synchronous: waybill numbers are not safe across a failover.
    // A role that may not read pg_stat_replication leaves it unsaid: a warning is no reason to stop.
    const warning = await standbys(db).then(syncStandbyWarning, () => null);
    if (warning) warn(warning);
  }
  if (!config.demoSeed) return { seeded: false };
  return withDatabaseLock(db, 'console:demo-seed', async () => {
    const seeded = await seedDemo(db, { orders });
    // The demo JD apps need the secrets key, which the rest of the seed does not.
    if (seeded) await seedDemoJdAuthorize(db, secretBox(loadSecretKey(config.JD_SECRET_KEY, config.DATA_DIR)), now);
    if (seeded) await seedDemoDeclarations(db, now);
    return { seeded };
  });
}
