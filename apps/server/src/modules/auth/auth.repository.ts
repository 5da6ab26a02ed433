import type { auth as C } from '@console/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { ilike, likeContaining, likeSql } from '../../db/dialect.ts';
import { reusable } from '../../db/reusable.ts';
import { createUsersRepository } from '../users/index.ts';

/** SQL for accounts, sessions and tokens. */
export function createAuthRepository(db: Database) {
  const accounts = createUsersRepository(db);
  // Every authenticated call runs this read first: built once, re-bound per call.
  const tokenQuery = reusable(db, (_: null, v: { tokenHash: string }) =>
    db
      .selectFrom('session_tokens as t')
      .innerJoin('sessions as s', 's.id', 't.session_id')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        't.token_hash',
        't.access_expires_at',
        't.refresh_expires_at',
        't.rotated_at',
        's.id as session_id',
        's.ended_at',
        's.end_reason',
        's.last_seen_at',
        'u.id as user_id',
        'u.name',
        'u.display_name',
        'u.role',
        'u.customer_id',
        'u.disabled',
        'u.must_change_password',
      ])
      .where('t.token_hash', '=', v.tokenHash),
  );
  /**
   * Live sessions (the operators' session page): not ended, the account enabled, and a token not
   * rotated whose refresh window is still open (one left after logout-less closing of a browser
   * stays live until then, since it could still come back).
   */
  const liveSessions = (now: string) =>
    db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('customers as c', 'c.id', 'u.customer_id')
      .where('s.ended_at', 'is', null)
      .where('u.disabled', '=', 0)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('session_tokens as t')
            .select('t.session_id')
            .whereRef('t.session_id', '=', 's.id')
            .where('t.rotated_at', 'is', null)
            .where('t.refresh_expires_at', '>', now),
        ),
      );
  type SessionFilters = Pick<C.SessionListRequest, 'keyword'>;
  const sessionFilter = <Q extends ReturnType<typeof liveSessions>>(q: Q, f: SessionFilters): Q => {
    if (!f.keyword) return q;
    // The user's text inside LIKE: its wildcards are matched literally.
    const p = likeContaining(f.keyword);
    const op = ilike(db);
    const like = (col: string) => likeSql(col, op, p);
    return q.where((eb) => eb.or([like('u.name'), like('u.display_name'), like('c.code')])) as Q;
  };

  return {
    async sessionPage(f: C.SessionListRequest, now: string) {
      const [{ n }] = await sessionFilter(liveSessions(now), f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .execute();
      const col = f.sort === 'createdAt' ? 's.created_at' : 's.last_seen_at';
      const list = await sessionFilter(liveSessions(now), f)
        .select([
          's.id',
          'u.id as user_id',
          'u.name as user_name',
          'u.display_name',
          'u.role',
          'c.code as customer_code',
          's.uuid',
          's.user_agent',
          's.ip',
          's.created_at',
          's.last_seen_at',
        ])
        .orderBy(col, f.order)
        .orderBy('s.id', f.order)
        .limit(f.limit)
        .offset(f.offset)
        .execute();
      return { total: Number(n), list };
    },
    /** A live session with its account (what `session/endOne` may act on). */
    liveSession(id: number, now: string) {
      return liveSessions(now)
        .select(['s.id', 'u.id as user_id', 'u.name as user_name', 'u.role'])
        .where('s.id', '=', id)
        .executeTakeFirst();
    },
    /** Ends one session if nobody ended it first; false when it was already over. */
    async endSessionOnce(id: number, reason: string, now: string) {
      const r = await db
        .updateTable('sessions')
        .set({ ended_at: now, end_reason: reason })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    // Accounts are read and written by the users module (issue 30 #3: one writer of `users`).
    findUserByName: accounts.byName,
    findUserById: accounts.byId,
    /** The token row with its session and user, in one read. */
    async findToken(tokenHash: string) {
      return (await tokenQuery.execute(null, { tokenHash }))[0];
    },
    permissionsOf(role: string) {
      return db.selectFrom('role_permissions').select('route_name').where('role', '=', role).execute();
    },
    async createSession(s: { userId: number; uuid: string | null; ip: string; userAgent: string | null; now: string }) {
      const row = await db
        .insertInto('sessions')
        .values({
          user_id: s.userId,
          uuid: s.uuid,
          ip: s.ip,
          user_agent: s.userAgent,
          created_at: s.now,
          last_seen_at: s.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    insertToken(t: { hash: string; sessionId: number; accessExpiresAt: string; refreshExpiresAt: string }) {
      return db
        .insertInto('session_tokens')
        .values({
          token_hash: t.hash,
          session_id: t.sessionId,
          access_expires_at: t.accessExpiresAt,
          refresh_expires_at: t.refreshExpiresAt,
        })
        .execute();
    },
    /** Marks the token rotated only if nobody rotated it first; false means it was already used. */
    async rotateToken(hash: string, now: string): Promise<boolean> {
      const r = await db
        .updateTable('session_tokens')
        .set({ rotated_at: now })
        .where('token_hash', '=', hash)
        .where('rotated_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    touchSession(id: number, now: string) {
      return db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
    },
    endSession(id: number, reason: string, now: string) {
      return db
        .updateTable('sessions')
        .set({ ended_at: now, end_reason: reason })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .execute();
    },
    async endSessionsOfUser(userId: number, reason: string, now: string, exceptSessionId?: number) {
      let q = db
        .updateTable('sessions')
        .set({ ended_at: now, end_reason: reason })
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null);
      if (exceptSessionId !== undefined) q = q.where('id', '!=', exceptSessionId);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    setPassword: accounts.setPassword,
    setDisabled: accounts.setDisabled,
    /**
     * Takes one attempt of `key`'s window before any password is checked, in one statement:
     * a fresh window when the last one is over, else one more attempt while fewer than
     * `limit` were taken. The upsert holds the row (SQLite's single writer; PostgreSQL's row
     * lock, re-checked on the latest row), so concurrent callers cannot all see room.
     * Returns the window the attempt counts in, or undefined when the limit is reached.
     */
    async reserveAttempt(key: string, now: number, windowMs: number, limit: number) {
      const over = sql<boolean>`login_attempts.window_start <= ${now - windowMs}`;
      const r = await db
        .insertInto('login_attempts')
        .values({ key, window_start: now, attempts: 1 })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              window_start: sql<number>`case when ${over} then ${now} else login_attempts.window_start end`,
              attempts: sql<number>`case when ${over} then 1 else login_attempts.attempts + 1 end`,
            })
            .where((eb) => eb.or([over, eb('login_attempts.attempts', '<', limit)])),
        )
        .returning('window_start')
        .executeTakeFirst();
      return r ? Number(r.window_start) : undefined;
    },
    /** Gives back an attempt that checked nothing wrong (a success), if its window still runs. */
    releaseAttempt(key: string, windowStart: number) {
      return db
        .updateTable('login_attempts')
        .set({ attempts: sql<number>`attempts - 1` })
        .where('key', '=', key)
        .where('window_start', '=', windowStart)
        .where('attempts', '>', 0)
        .execute();
    },
    /** Whether `account` logged in from `address` since `since` (epoch ms). */
    async isKnownAddress(account: string, address: string, since: number) {
      const r = await db
        .selectFrom('login_known_addresses')
        .select('account')
        .where('account', '=', account)
        .where('address', '=', address)
        .where('last_success_at', '>', since)
        .executeTakeFirst();
      return r !== undefined;
    },
    /** A success from `address`: it is known (again) from now. */
    async rememberAddress(account: string, address: string, now: number) {
      await db
        .insertInto('login_known_addresses')
        .values({ account, address, last_success_at: now })
        .onConflict((oc) => oc.columns(['account', 'address']).doUpdateSet({ last_success_at: now }))
        .execute();
    },
    /** The account's addresses unused since `before` (epoch ms) are strangers' again. */
    async forgetAddressesBefore(account: string, before: number) {
      await db
        .deleteFrom('login_known_addresses')
        .where('account', '=', account)
        .where('last_success_at', '<=', before)
        .execute();
    },
    /** Rows of windows that are over say nothing any more (any guessed name leaves one). */
    deleteAttemptsBefore(windowStart: number) {
      return db.deleteFrom('login_attempts').where('window_start', '<=', windowStart).execute();
    },
    customerOf(id: number) {
      return db.selectFrom('customers').select(['id', 'code', 'name']).where('id', '=', id).executeTakeFirst();
    },
    settingsOf(userId: number) {
      return db.selectFrom('user_settings').select(['key', 'value']).where('user_id', '=', userId).execute();
    },
    /**
     * Upserts one setting. With a sequence stamp, a save older than the one stored by the same
     * session (browser) is ignored, in the statement: two saves in flight at once cannot both
     * pass a read-then-write check. Another browser's save always wins (its clock may be behind).
     */
    async saveSetting(
      userId: number,
      key: string,
      value: string,
      now: string,
      stamp?: { seq: number; sessionId: number },
    ) {
      const row = { value, updated_at: now, seq: stamp?.seq ?? 0, session_id: stamp?.sessionId ?? null };
      await db
        .insertInto('user_settings')
        .values({ user_id: userId, key, ...row })
        .onConflict((oc) => {
          const set = oc.columns(['user_id', 'key']).doUpdateSet(row);
          if (!stamp) return set;
          return set.where((eb) =>
            eb.or([
              eb('user_settings.session_id', 'is', null),
              eb('user_settings.session_id', '!=', stamp.sessionId),
              eb('user_settings.seq', '<', stamp.seq),
            ]),
          );
        })
        .execute();
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
