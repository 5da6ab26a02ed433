import { ConfigError, parseConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { migrateToLatest, pendingMigrations } from '../db/migrate.ts';

/**
 * Runs the pending migrations and exits: the separate step of a deployment that starts its
 * instances with MIGRATE_ON_START=false. Safe beside starting instances (a database lock).
 */
let config;
try {
  config = parseConfig(process.env);
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(2);
}
const db = createDatabase(config.database);
try {
  const pending = await pendingMigrations(db);
  await migrateToLatest(db);
  console.log(pending.length ? `Ran ${pending.length} migration(s): ${pending.join(', ')}` : 'No migration to run.');
} finally {
  await db.destroy();
}
