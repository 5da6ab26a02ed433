import type { Database } from '../../db/database.ts';
import { reusable } from '../../db/reusable.ts';

/** SQL for accounts, sessions and tokens. */
export function createAuthRepository(db: Database) {
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
      ])
      .where('t.token_hash', '=', v.tokenHash),
  );
  return {
    findUserByName(name: string) {
      return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
    },
    findUserById(id: number) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
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
    setPassword(userId: number, hash: string, now: string) {
      return db
        .updateTable('users')
        .set({ password_hash: hash, password_changed_at: now })
        .where('id', '=', userId)
        .execute();
    },
    setDisabled(userId: number, disabled: boolean) {
      return db
        .updateTable('users')
        .set({ disabled: disabled ? 1 : 0 })
        .where('id', '=', userId)
        .execute();
    },
    recordFailure(key: string, at: string) {
      return db.insertInto('login_failures').values({ key, at }).execute();
    },
    async countFailures(key: string, since: string): Promise<number> {
      const r = await db
        .selectFrom('login_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('key', '=', key)
        .where('at', '>', since)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    clearFailures(key: string) {
      return db.deleteFrom('login_failures').where('key', '=', key).execute();
    },
    customerOf(id: number) {
      return db.selectFrom('customers').select(['id', 'code', 'name']).where('id', '=', id).executeTakeFirst();
    },
    settingsOf(userId: number) {
      return db.selectFrom('user_settings').select(['key', 'value']).where('user_id', '=', userId).execute();
    },
    async saveSetting(userId: number, key: string, value: string, now: string) {
      await db
        .insertInto('user_settings')
        .values({ user_id: userId, key, value, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value, updated_at: now }))
        .execute();
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
