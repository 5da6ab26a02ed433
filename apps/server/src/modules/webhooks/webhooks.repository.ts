import type { ExpressionBuilder, Insertable, Transaction, Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Not an event of an order its batch is still staging: on SQLite a commit writes its orders (and
 * their events) in short transactions, hidden until the batch is done; their events wait until then,
 * and go with the batch's failure (detachOrderEvents drops them with the orders). PostgreSQL's
 * commit is one transaction: nothing of it is seen before.
 */
const notStaged = (eb: ExpressionBuilder<DB, 'webhook_events'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('orders as so')
        .innerJoin('batches as sb', 'sb.id', 'so.batch_id')
        .select('so.id')
        .whereRef('so.id', '=', 'webhook_events.order_id')
        .where('sb.status', '=', 'committing'),
    ),
  );

/** Webhooks' SQL: endpoints, the outbox's relay, deliveries and their attempts. */
export function createWebhooksRepository(db: Database) {
  return {
    /** Live endpoints of these customers (`'all'`: every customer's, the admin's read). */
    endpoints(customerIds: readonly number[] | 'all', id?: number) {
      if (customerIds !== 'all' && !customerIds.length) return Promise.resolve([]);
      let q = db.selectFrom('webhook_endpoints').selectAll().where('deleted_at', 'is', null);
      if (customerIds !== 'all') q = q.where('customer_id', 'in', [...customerIds]);
      if (id !== undefined) q = q.where('id', '=', id);
      return q.orderBy('id').execute();
    },
    endpoint: (id: number) => db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst(),
    async insertEndpoint(trx: Transaction<DB>, row: Insertable<DB['webhook_endpoints']>) {
      const r = await trx.insertInto('webhook_endpoints').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async updateEndpoint(trx: Transaction<DB> | Database, id: number, set: Updateable<DB['webhook_endpoints']>) {
      const r = await trx
        .updateTable('webhook_endpoints')
        .set(set)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** Whether any event waits for the relay (its schedule's `due`: a read on the outbox's index). */
    hasUndispatched: async () =>
      !!(await db
        .selectFrom('webhook_events')
        .select('id')
        .where('dispatched_at', 'is', null)
        .where(notStaged)
        .limit(1)
        .executeTakeFirst()),
    /** The relay's next events: not yet turned into deliveries, oldest first. */
    undispatched: (limit: number) =>
      db
        .selectFrom('webhook_events')
        .select(['id', 'customer_id', 'type'])
        .where('dispatched_at', 'is', null)
        .where(notStaged)
        .orderBy('occurred_at')
        .orderBy('id')
        .limit(limit)
        .execute(),
    /** Live, active endpoints of these customers (the relay filters their event types). */
    activeEndpoints: (trx: Transaction<DB>, customerIds: readonly number[]) =>
      trx
        .selectFrom('webhook_endpoints')
        .select(['id', 'customer_id', 'event_types'])
        .where('customer_id', 'in', [...customerIds])
        .where('deleted_at', 'is', null)
        .where('active', '=', 1)
        .execute(),
    async insertDeliveries(trx: Transaction<DB>, rows: Insertable<DB['webhook_deliveries']>[]) {
      if (!rows.length) return [];
      // A relay run again after a crash adds nothing twice.
      return trx
        .insertInto('webhook_deliveries')
        .values(rows)
        .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
        .returning(['id', 'customer_id'])
        .execute();
    },
    async markDispatched(trx: Transaction<DB>, ids: readonly string[], at: string) {
      if (ids.length)
        await trx
          .updateTable('webhook_events')
          .set({ dispatched_at: at })
          .where('id', 'in', [...ids])
          .execute();
    },
    async insertEvent(trx: Transaction<DB>, row: Insertable<DB['webhook_events']>) {
      await trx.insertInto('webhook_events').values(row).execute();
    },

    /** A delivery with what sending it needs: its event's body and its endpoint. */
    deliveryToSend: (id: number) =>
      db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
        .select([
          'd.id',
          'd.status',
          'd.customer_id',
          'e.id as event_id',
          'e.payload',
          'w.id as endpoint_id',
          'w.url',
          'w.active',
          'w.deleted_at',
          'w.secret_sealed',
          'w.previous_secret_sealed',
          'w.previous_until',
          'w.failing_since',
          'w.created_by',
        ])
        .where('d.id', '=', id)
        .executeTakeFirst(),
    /**
     * Records one try and returns its number. The number is the delivery's count plus one, taken in
     * the same update: a resend while a try is still out runs a second job of the delivery at once
     * (a customer's share is more than one), and both had read the same count before sending.
     */
    async recordAttempt(
      trx: Transaction<DB>,
      a: Omit<Insertable<DB['webhook_attempts']>, 'attempt'>,
      delivery: { status: string; lastStatusCode: number | null },
    ): Promise<number> {
      const { attempts } = await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: delivery.status,
          attempts: eb('attempts', '+', 1),
          last_status_code: delivery.lastStatusCode,
          last_attempt_at: a.at,
        }))
        .where('id', '=', a.delivery_id)
        .returning('attempts')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('webhook_attempts')
        .values({ ...a, attempt: attempts })
        .execute();
      return attempts;
    },
    async setDeliveryStatus(trx: Transaction<DB> | Database, id: number, status: string) {
      await trx.updateTable('webhook_deliveries').set({ status }).where('id', '=', id).execute();
    },
    /** Pending deliveries of an endpoint (it was disabled or deleted): cancelled. */
    async cancelPending(trx: Transaction<DB>, endpointId: number) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled' })
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .execute();
    },

    deliveries(
      customerIds: readonly number[] | 'all',
      f: { id?: number; endpointId?: number; status?: string; eventId?: string; before?: number; limit: number },
    ) {
      if (customerIds !== 'all' && !customerIds.length) return Promise.resolve([]);
      let q = db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .select([
          'd.id',
          'd.endpoint_id',
          'd.customer_id',
          'd.event_id',
          'e.type',
          'e.order_id',
          'd.status',
          'd.attempts',
          'd.last_status_code',
          'd.last_attempt_at',
          'd.created_at',
        ]);
      if (customerIds !== 'all') q = q.where('d.customer_id', 'in', [...customerIds]);
      if (f.id !== undefined) q = q.where('d.id', '=', f.id);
      if (f.endpointId !== undefined) q = q.where('d.endpoint_id', '=', f.endpointId);
      if (f.status !== undefined) q = q.where('d.status', '=', f.status);
      if (f.eventId !== undefined) q = q.where('d.event_id', '=', f.eventId);
      if (f.before !== undefined) q = q.where('d.id', '<', f.before);
      return q.orderBy('d.id', 'desc').limit(f.limit).execute();
    },
    attempts: (deliveryId: number) =>
      db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute(),
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
