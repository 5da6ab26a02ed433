import { pageOf } from '../../db/paged.ts';
import type { jdAuthorize as C } from '@console/contract';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { ilike, likeContaining, likeSql } from '../../db/dialect.ts';
import type { JdAuthorizationsTable } from '../../db/schema-jd.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

const SORT = {
  createdAt: 'j.created_at',
  tokenExpiresAt: 'j.token_expires_at',
  platformName: 'j.platform_name',
  appKey: 'j.app_key',
} as const;

export type JdValues = Pick<
  JdAuthorizationsTable,
  'app_key' | 'customer_code' | 'isv_source' | 'dept_no' | 'platform_id' | 'platform_name'
>;
export type JdTokenValues = Pick<
  JdAuthorizationsTable,
  'access_token_enc' | 'access_token_mask' | 'refresh_token_enc' | 'open_id' | 'token_expires_at' | 'authorized_at'
>;
export const NO_TOKENS: JdTokenValues = {
  access_token_enc: null,
  access_token_mask: null,
  refresh_token_enc: null,
  open_id: null,
  token_expires_at: null,
  authorized_at: null,
};

/**
 * SQL of JD authorizations and their OAuth states. Every read and write of an authorization
 * goes through the caller's scope. The list and the masks never read the `*_enc` columns;
 * only `secrets` does, for the one call that talks to JD.
 */
export function createJdAuthorizeRepository(db: Database) {
  const like = ilike(db);
  const base = () => db.selectFrom('jd_authorizations as j').innerJoin('customers as c', 'c.id', 'j.customer_id');
  const columns = [
    'j.id',
    'j.customer_id',
    'c.code as owner_code',
    'j.app_key',
    'j.app_secret_mask',
    'j.customer_code',
    'j.isv_source',
    'j.dept_no',
    'j.platform_id',
    'j.platform_name',
    'j.access_token_mask',
    'j.open_id',
    'j.token_expires_at',
    'j.authorized_at',
    'j.created_at',
    'j.updated_at',
  ] as const;

  const filtered = (scope: Scope, f: Omit<C.JdAuthorizeListRequest, 'offset' | 'limit'>, now: string, soon: string) => {
    let q = inScope(base(), 'j.customer_id', scope);
    if (f.customerId) q = q.where('j.customer_id', '=', f.customerId);
    if (f.keyword) {
      const p = likeContaining(f.keyword);
      q = q.where((eb) =>
        eb.or([
          likeSql('j.app_key', like, p),
          likeSql('j.customer_code', like, p),
          likeSql('j.platform_name', like, p),
        ]),
      );
    }
    // Times are ISO UTC text on SQLite (compared as text) and timestamptz on PostgreSQL.
    if (f.status === 'unauthorized') q = q.where('j.access_token_enc', 'is', null);
    if (f.status === 'expired')
      q = q.where('j.access_token_enc', 'is not', null).where('j.token_expires_at', '<=', now);
    if (f.status === 'expiring')
      q = q
        .where('j.access_token_enc', 'is not', null)
        .where('j.token_expires_at', '>', now)
        .where('j.token_expires_at', '<=', soon);
    if (f.status === 'valid') q = q.where('j.access_token_enc', 'is not', null).where('j.token_expires_at', '>', soon);
    return q;
  };

  return {
    async page(scope: Scope, f: C.JdAuthorizeListRequest, now: string, soon: string) {
      const q = filtered(scope, f, now, soon);
      return pageOf(q, (q) => q.select(columns).orderBy(SORT[f.sort], f.order).orderBy('j.id', f.order), f);
    },

    options: (scope: Scope, customerId?: number) => {
      let q = inScope(base(), 'j.customer_id', scope);
      if (customerId) q = q.where('j.customer_id', '=', customerId);
      return q
        .select(['j.id', 'j.app_key', 'j.platform_name', 'j.access_token_enc'])
        .orderBy('j.id')
        .limit(1000)
        .execute();
    },

    find: (scope: Scope, id: number) =>
      inScope(base(), 'j.customer_id', scope).where('j.id', '=', id).select(columns).executeTakeFirst(),

    /** Authorizations with a refresh token whose access token expires by `by` (the renewal job), oldest expiry first. */
    renewable: (by: string) =>
      db
        .selectFrom('jd_authorizations')
        .select('id')
        .where('refresh_token_enc', 'is not', null)
        .where('token_expires_at', '<=', by)
        .orderBy('token_expires_at')
        .execute(),

    /** The sealed secret and refresh token, for the calls that talk to JD. */
    secrets: (scope: Scope, id: number) =>
      inScope(db.selectFrom('jd_authorizations'), 'customer_id', scope)
        .where('id', '=', id)
        .select(['id', 'app_key', 'app_secret_enc', 'refresh_token_enc', 'updated_at'])
        .executeTakeFirst(),

    customerExists: async (id: number) =>
      !!(await db.selectFrom('customers').select('id').where('id', '=', id).executeTakeFirst()),

    insert: (row: Omit<JdAuthorizationsTable, 'id'>) =>
      db.insertInto('jd_authorizations').values(row).returning('id').executeTakeFirstOrThrow(),

    async update(scope: Scope, id: number, v: Partial<Omit<JdAuthorizationsTable, 'id'>>): Promise<boolean> {
      const r = await inScope(db.updateTable('jd_authorizations'), 'customer_id', scope)
        .set(v)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * Stores tokens only if the app key is still the one they were granted for: an edit of the
     * app between the call to JD and this write wins (its tokens were dropped on purpose).
     */
    async storeTokens(id: number, appKey: string, v: JdTokenValues & { updated_at: string }): Promise<boolean> {
      const r = await db
        .updateTable('jd_authorizations')
        .set(v)
        .where('id', '=', id)
        .where('app_key', '=', appKey)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Deletes one app; `removed` runs in the delete's transaction with the row as it was (its audit). */
    async remove(
      scope: Scope,
      id: number,
      removed: (trx: Database, row: Selectable<JdAuthorizationsTable>) => Promise<void>,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const mine = await inScope(trx.selectFrom('jd_authorizations'), 'customer_id', scope)
          .where('id', '=', id)
          .selectAll()
          .executeTakeFirst();
        if (!mine) return false;
        await trx.deleteFrom('jd_oauth_states').where('authorization_id', '=', id).execute();
        await trx.deleteFrom('jd_authorizations').where('id', '=', id).execute();
        await removed(trx, mine);
        return true;
      });
    },

    insertState: (row: {
      state_hash: string;
      authorization_id: number;
      user_id: number;
      expires_at: string;
      created_at: string;
    }) =>
      db
        .insertInto('jd_oauth_states')
        .values({ ...row, used_at: null })
        .execute(),

    /**
     * Takes a state once: only the user it was made for, only before it expires, only if not yet
     * taken. One statement, so two requests with the same state cannot both take it.
     */
    async takeState(stateHash: string, userId: number, now: string): Promise<number | null> {
      const r = await db
        .updateTable('jd_oauth_states')
        .set({ used_at: now })
        .where('state_hash', '=', stateHash)
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('authorization_id')
        .executeTakeFirst();
      return r?.authorization_id ?? null;
    },

    /** States used or expired a day ago are of no further use. */
    pruneStates: (before: string) => db.deleteFrom('jd_oauth_states').where('expires_at', '<', before).execute(),
  };
}
export type JdAuthorizeRepository = ReturnType<typeof createJdAuthorizeRepository>;
export type JdRecord = NonNullable<Awaited<ReturnType<JdAuthorizeRepository['find']>>>;
