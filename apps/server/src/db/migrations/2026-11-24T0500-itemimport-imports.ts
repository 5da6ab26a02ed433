import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Item imports (issue 12, bulk): one row per uploaded item workbook. The preview's valid rows
 * wait in a stored file (`valid_key`) until confirmed or expired; the failed rows are in an
 * error workbook (`error_file_id`); `errors` keeps the first problems as message keys (JSON),
 * translated when read, in the reader's language.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('item_imports')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    // preview | committing | done | failed | expired
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('valid_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_items', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('valid_key', 'text')
    .addColumn('error_file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('error_message', 'text')
    .addColumn('preview_until', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('item_imports_customer').on('item_imports').columns(['customer_id', 'id']).execute();
  await db.schema.createIndex('item_imports_status').on('item_imports').columns(['status', 'preview_until']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('item_imports').execute();
}
