import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * The embedded job runner's queue (lib/jobs.memory.ts): a job is a row, so enqueuing it inside a
 * caller's transaction makes it commit or roll back with the change that asked for it. SQLite
 * only: on PostgreSQL the queue is pg-boss's, in its own schema (`pgboss`), created by pg-boss at
 * start under its own advisory lock (docs/decisions.md, "One job queue").
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  await db.schema
    .createTable('job_queue')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'integer')
    .addColumn('size', 'text', (c) => c.notNull())
    .addColumn('singleton_key', 'text')
    // queued | active | done | failed
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('job_queue_waiting').on('job_queue').columns(['state', 'run_after', 'id']).execute();
  // The exclusive kinds' promise: one waiting or running job per key, whoever enqueues it.
  await db.schema
    .createIndex('job_queue_one_per_key')
    .on('job_queue')
    .columns(['kind', 'singleton_key'])
    .unique()
    .where(sql<boolean>`singleton_key is not null and state in ('queued', 'active')`)
    .execute();
}
