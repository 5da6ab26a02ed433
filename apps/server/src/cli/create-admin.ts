import { parseArgs } from 'node:util';
import { passwordMessages, passwordProblems } from '@console/contract';
import { isCommonPassword } from '@console/contract/common-passwords';
import { parseConfig } from '../config.ts';
import { createDatabase, startDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { hashPassword } from '../lib/crypto.ts';
import { createUsersRepository } from '../modules/users/index.ts';

/** Creates the first admin (role admin-none) of a production database. */
const { values } = parseArgs({ options: { name: { type: 'string' }, password: { type: 'string' } } });
const password = values.password ?? process.env.ADMIN_PASSWORD;
if (!values.name || !password) {
  console.error('Usage: npm run create-admin -w apps/server -- --name NAME --password PASSWORD');
  process.exit(2);
}
// The policy every new password meets (the same rules as updatePassWord).
const problems = passwordProblems(password, { userName: values.name, isCommon: isCommonPassword });
if (problems.length) {
  console.error('password: ' + problems.map((p) => passwordMessages[`password_${p}`].en).join(' '));
  process.exit(2);
}
const config = parseConfig(process.env);
// Say where the admin goes: run without DATABASE_URL beside a PostgreSQL deployment, it used to
// create the admin in the default SQLite file quietly, and the login then failed with no clue.
const where =
  config.database.dialect === 'sqlite'
    ? `SQLite file ${config.database.file}`
    : `PostgreSQL ${redactUrl(config.database.url)}`;
console.log(`Database: ${where}`);
if (config.database.dialect === 'sqlite' && !process.env.DATABASE_URL) {
  console.log('(DATABASE_URL is not set: this is the embedded default. Set DATABASE_URL=postgres://… for PostgreSQL.)');
}
const db = createDatabase(config.database);
// Migrations hold a session lock: on DATABASE_DIRECT_URL (db/database.ts startDatabase).
const direct = startDatabase(config.database, db);
await migrateToLatest(direct);
if (direct !== db) await direct.destroy();
const now = new Date().toISOString();
const users = createUsersRepository(db);
if (await users.idAndRoleByName(values.name)) {
  console.error(`A user named ${values.name} exists already in ${where}.`);
  process.exit(1);
}
await users.insert(
  {
    name: values.name,
    display_name: values.name,
    password_hash: await hashPassword(password),
    role: 'admin-none',
    customer_id: null,
    created_at: now,
  },
  { oneTimePassword: false },
);
await db.destroy();
console.log(`Admin ${values.name} created in ${where}.`);

/** The URL without its password: the output may end up in a ticket or a CI log. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
