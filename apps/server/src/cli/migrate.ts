import { ConfigError, parseConfig } from '../config.ts';
import { createDatabase, startDatabase } from '../db/database.ts';
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
// On DATABASE_DIRECT_URL (db/database.ts startDatabase): the run holds a session lock.
const pooled = createDatabase(config.database);
const db = startDatabase(config.database, pooled);
try {
  const pending = await pendingMigrations(db);
  await migrateToLatest(db);
  console.log(pending.length ? `Ran ${pending.length} migration(s): ${pending.join(', ')}` : 'No migration to run.');
} finally {
  if (db !== pooled) await db.destroy();
  await pooled.destroy();
}
