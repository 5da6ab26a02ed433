import type { apiKeys as C } from '@console/contract';
import { sql } from 'kysely';
import { ilike, likeContaining, likeSql } from '../../db/dialect.ts';
import type { Database } from '../../db/database.ts';

/** Whose keys a list shows: a customer's, an agent's, or every key (the admin). */
export type KeyOwner = { customerId: number } | { agentUserId: number } | 'all';

const SORT_COLUMNS = {
  createdAt: 'k.created_at',
  name: 'k.name',
  lastUsedAt: 'k.last_used_at',
  expiresAt: 'k.expires_at',
} as const;

/** The SQL of API keys (issue 39): their rows, the customers an agent's key is limited to, rate windows. */
export function createApiKeysRepository(db: Database) {
  const keys = () =>
    db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.created_by')
      .leftJoin('customers as c', 'c.id', 'k.customer_id');
  type Keys = ReturnType<typeof keys>;

  const filtered = (owner: KeyOwner, f: Pick<C.ApiKeyListRequest, 'includeRevoked' | 'keyword'>): Keys => {
    let q = keys();
    if (owner !== 'all' && 'customerId' in owner) q = q.where('k.customer_id', '=', owner.customerId);
    if (owner !== 'all' && 'agentUserId' in owner) q = q.where('k.agent_user_id', '=', owner.agentUserId);
    if (!f.includeRevoked) q = q.where('k.revoked_at', 'is', null);
    if (f.keyword) {
      // The user's text inside LIKE: its wildcards are matched literally.
      const p = likeContaining(f.keyword);
      const op = ilike(db);
      q = q.where((eb) => eb.or([likeSql('k.name', op, p), likeSql('k.prefix', op, p)]));
    }
    return q;
  };

  const withColumns = (q: Keys) =>
    q.select([
      'k.id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.customer_id',
      'c.code as customer_code',
      'k.agent_user_id',
      'u.name as created_by_name',
      'k.created_at',
      'k.expires_at',
      'k.last_used_at',
      'k.revoked_at',
    ]);

  /** The rows with the customers each agent's key is limited to (by id, code and name). */
  async function withCustomers<R extends { id: number }>(rows: R[]) {
    const limited = rows.length
      ? await db
          .selectFrom('api_key_customers as l')
          .innerJoin('customers as lc', 'lc.id', 'l.customer_id')
          .select(['l.api_key_id', 'l.customer_id', 'lc.code', 'lc.name'])
          .where(
            'l.api_key_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('l.customer_id')
          .execute()
      : [];
    return rows.map((r) => {
      const mine = limited.filter((l) => l.api_key_id === r.id);
      return {
        ...r,
        customer_ids: mine.map((l) => l.customer_id),
        customers: mine.map((l) => ({ id: l.customer_id, code: l.code, name: l.name })),
      };
    });
  }

  return {
    async insert(
      trx: Database,
      k: {
        name: string;
        prefix: string;
        secretHash: string;
        scopes: string[];
        customerId: number | null;
        agentUserId: number | null;
        createdBy: number;
        createdAt: string;
        expiresAt: string | null;
        customerIds: number[];
      },
    ): Promise<number> {
      const { id } = await trx
        .insertInto('api_keys')
        .values({
          name: k.name,
          prefix: k.prefix,
          secret_hash: k.secretHash,
          scopes: JSON.stringify(k.scopes),
          customer_id: k.customerId,
          agent_user_id: k.agentUserId,
          created_by: k.createdBy,
          created_at: k.createdAt,
          expires_at: k.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (k.customerIds.length) {
        await trx
          .insertInto('api_key_customers')
          .values(k.customerIds.map((customer_id) => ({ api_key_id: id, customer_id })))
          .execute();
      }
      return id;
    },

    /** One page of the owner's keys (apiKey/list): the filters, the sort, and the total they match. */
    async page(owner: KeyOwner, f: C.ApiKeyListRequest) {
      const [{ n }] = await filtered(owner, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .execute();
      const col = SORT_COLUMNS[f.sort];
      let q = withColumns(filtered(owner, f));
      // A key never used or never expiring sorts last either way, on both databases (their nulls differ).
      if (col !== 'k.created_at' && col !== 'k.name') q = q.orderBy(sql`${sql.ref(col)} is null`);
      const rows = await q.orderBy(col, f.order).orderBy('k.id', f.order).limit(f.limit).offset(f.offset).execute();
      return { total: Number(n), list: await withCustomers(rows) };
    },

    /** One key as the list shows it (the answer of a create). */
    async one(id: number) {
      const rows = await withColumns(keys().where('k.id', '=', id)).execute();
      return (await withCustomers(rows))[0];
    },

    /** The key's owner, for the revoke's tenancy check. */
    owner(id: number) {
      return db
        .selectFrom('api_keys')
        .select(['id', 'prefix', 'customer_id', 'agent_user_id', 'revoked_at'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Revokes a live key; 0 when it was revoked already. */
    async revoke(trx: Database, id: number, by: number, at: string): Promise<number> {
      const r = await trx
        .updateTable('api_keys')
        .set({ revoked_at: at, revoked_by: by })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /**
     * The key a request presents, by the hash of the whole key, with what decides whether it is
     * still good: revoked, expired, or its agent's account disabled. Read on every request (no
     * cache), so a revocation is refused by every instance from the next request on.
     */
    byHash(secretHash: string) {
      return db
        .selectFrom('api_keys as k')
        .innerJoin('users as u', 'u.id', 'k.created_by')
        .leftJoin('users as a', 'a.id', 'k.agent_user_id')
        .select([
          'k.id',
          'k.prefix',
          'k.scopes',
          'k.customer_id',
          'k.agent_user_id',
          'k.created_by',
          'u.name as created_by_name',
          'u.display_name as created_by_display',
          'a.disabled as agent_disabled',
          'k.expires_at',
          'k.last_used_at',
          'k.revoked_at',
        ])
        .where('k.secret_hash', '=', secretHash)
        .executeTakeFirst();
    },

    /** The customers an agent's key is limited to, among those the agent still has. */
    async agentKeyCustomers(keyId: number, agentUserId: number): Promise<number[]> {
      const mine = await db
        .selectFrom('customers')
        .select('id')
        .where('agent_user_id', '=', agentUserId)
        .orderBy('id')
        .execute();
      const limited = await db
        .selectFrom('api_key_customers')
        .select('customer_id')
        .where('api_key_id', '=', keyId)
        .execute();
      const only = new Set(limited.map((l) => l.customer_id));
      return mine.map((m) => m.id).filter((id) => only.size === 0 || only.has(id));
    },

    /** Customers of an agent (to check a key's limit against). */
    async agentCustomerIds(agentUserId: number): Promise<number[]> {
      const rows = await db.selectFrom('customers').select('id').where('agent_user_id', '=', agentUserId).execute();
      return rows.map((r) => r.id);
    },

    /**
     * Last use, written at most once a minute per key: the condition makes a busy key's requests
     * skip the write (and two instances at once write it once).
     */
    async touch(id: number, at: string, ifBefore: string): Promise<void> {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', ifBefore)]))
        .execute();
    },

    /**
     * Counts one request in the key's fixed window and returns the count so far: one upsert in the
     * database every instance shares (`rate_limits`, as the public tracking lookup's). The first
     * request of a window clears windows older than an hour.
     */
    async hit(key: string, windowStart: number): Promise<number> {
      const r = await db
        .insertInto('rate_limits')
        .values({ key, window_start: windowStart, hits: 1 })
        .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
        .returning('hits')
        .executeTakeFirstOrThrow();
      if (r.hits === 1) {
        await db.deleteFrom('rate_limits').where('key', '=', key).where('window_start', '<', windowStart).execute();
      }
      return r.hits;
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
