import type { Database } from '../../db/database.ts';

/**
 * The one place that reads a user by name or id and writes `users` (issue 30 #3): administration
 * (accounts created, one-time passwords, disabling) and sign-in (a user's own password) both go
 * through it. Lists that join users only to name who did something keep that join in their query.
 */
export function createUsersRepository(db: Database) {
  return {
    byName(name: string) {
      return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
    },
    byId(id: number) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Whether a name is taken, and by which role. */
    idAndRoleByName(name: string) {
      return db.selectFrom('users').select(['id', 'role']).where('name', '=', name).executeTakeFirst();
    },
    /**
     * A new account: its first password is one-time, changed at the first sign-in — except the
     * first admin's, which its creator typed on the server's command line (cli/create-admin).
     */
    async insert(
      v: {
        name: string;
        display_name: string;
        role: string;
        customer_id: number | null;
        password_hash: string;
        created_at: string;
      },
      opts: { oneTimePassword: boolean } = { oneTimePassword: true },
    ) {
      const r = await db
        .insertInto('users')
        .values({ ...v, password_changed_at: v.created_at, must_change_password: opts.oneTimePassword ? 1 : 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    /** A password an operator set: the user must change it at the next sign-in. */
    setOneTimePassword(id: number, hash: string, now: string) {
      return db
        .updateTable('users')
        .set({ password_hash: hash, password_changed_at: now, must_change_password: 1 })
        .where('id', '=', id)
        .execute();
    },
    /** A password the user chose. */
    setPassword(userId: number, hash: string, now: string) {
      return db
        .updateTable('users')
        .set({ password_hash: hash, password_changed_at: now, must_change_password: 0 })
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
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
