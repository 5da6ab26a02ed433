import { parseArgs } from 'node:util';
import { passwordMessages, passwordProblems } from '@console/contract';
import { isCommonPassword } from '@console/contract/common-passwords';
import { parseConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { hashPassword } from '../lib/crypto.ts';

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
const db = createDatabase(config.database);
await migrateToLatest(db);
const now = new Date().toISOString();
const existing = await db.selectFrom('users').select('id').where('name', '=', values.name).executeTakeFirst();
if (existing) {
  console.error(`A user named ${values.name} exists already.`);
  process.exit(1);
}
await db
  .insertInto('users')
  .values({
    name: values.name,
    display_name: values.name,
    password_hash: await hashPassword(password),
    role: 'admin-none',
    customer_id: null,
    created_at: now,
    password_changed_at: now,
  })
  .execute();
await db.destroy();
console.log(`Admin ${values.name} created.`);
