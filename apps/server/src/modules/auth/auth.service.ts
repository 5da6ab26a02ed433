import {
  ADMIN_ROLE,
  ErrorCode,
  passwordProblems,
  type Role,
  type RouteEntry,
  type auth as AuthContract,
  routeCatalogue,
  routeNames,
} from '@console/contract';
import { isCommonPassword } from '@console/contract/common-passwords';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { DUMMY_HASH, hashPassword, newToken, sha256, verifyPassword } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';
import { versionedCache } from '../../db/versioned-cache.ts';
import { KEY_START } from '../api-keys/index.ts';
import { type AuthRepository, createAuthRepository } from './auth.repository.ts';

export interface AuthDeps {
  db: Database;
  config: Config;
  clock: () => Date;
}

type SessionListRequest = AuthContract.SessionListRequest;

/** Why a session ended → how the other side is told (spec §4: 430 with the reason). */
const endReasonMessage: Record<string, string> = {
  password_changed: 'sessionEndedPassword',
  disabled: 'sessionEndedDisabled',
  operator: 'sessionEndedOperator',
};

/** Attempts taken by one login (account, then address) and the windows they count in. */
type Reservation = { key: string; windowStart: number }[];

/** Who outranks whom in account management: no one acts on a higher role's account. */
const roleRank: Record<Role, number> = { customer: 0, agent: 1, operator: 2, [ADMIN_ROLE]: 3 };

const TOUCH_EVERY_MS = 5 * 60_000;
/**
 * An address an account has not logged in from for this long is a stranger's again: long enough
 * for a holiday, short enough that a dial-up pool's old addresses do not stay trusted.
 */
const KNOWN_ADDRESS_MS = 90 * 86_400_000;

export function createAuthService({ db, config, clock }: AuthDeps) {
  const repo = createAuthRepository(db);
  // Every call reads its token row first; the row is reused while nothing has been committed
  // since (a logout, a disable or a rotation is a commit), and expiry is checked on each call.
  const tokens = versionedCache<Awaited<ReturnType<typeof repo.findToken>>>(db, config.READ_CACHE_ENTRIES);
  // Kept while the data is unchanged: a role edited in the System menu shows at the next `me`.
  const permissionCache = versionedCache<ReadonlySet<string>>(db, 16);
  const iso = (ms = 0) => new Date(clock().getTime() + ms).toISOString();

  async function permissionsOf(role: string): Promise<ReadonlySet<string>> {
    if (role === ADMIN_ROLE) return new Set(routeNames);
    return permissionCache(role, async () => new Set((await repo.permissionsOf(role)).map((r) => r.route_name)));
  }

  async function issueToken(trxDb: Database, sessionId: number) {
    const token = newToken();
    await createAuthRepository(trxDb).insertToken({
      hash: sha256(token),
      sessionId,
      accessExpiresAt: iso(config.ACCESS_TOKEN_TTL_SECONDS * 1000),
      refreshExpiresAt: iso(config.REFRESH_WINDOW_SECONDS * 1000),
    });
    return { access_token: token, expires_in: config.ACCESS_TOKEN_TTL_SECONDS };
  }

  /**
   * Login throttling (finding 1 of issue 10): one attempt of each window the login counts in is
   * reserved before any password is checked. Reading a failure count before the check and
   * writing it after let concurrent guesses all pass the read; the reservation is one atomic
   * statement, so at most the limit is ever checked per window, whatever the concurrency. A
   * success gives its attempt back.
   *
   * Which windows (finding 6 of issue 26, docs/decisions.md): from an address the account has
   * logged in from before, only that account-and-address pair's own window; from anywhere else,
   * the account's window and the address's. Strangers spending the account's window, or an
   * office NAT's, so no longer lock out the owner where the owner has logged in before, and a
   * guesser at a known address still gets LOGIN_MAX_FAILURES_PER_ACCOUNT per window there.
   */
  async function reserveAttempt(name: string, ip: string): Promise<Reservation> {
    const now = clock().getTime();
    const windowMs = config.LOGIN_THROTTLE_WINDOW_SECONDS * 1000;
    const account = name.toLowerCase();
    const known = await repo.isKnownAddress(account, ip, now - KNOWN_ADDRESS_MS);
    const limits = known
      ? ([[`known:${ip} ${account}`, config.LOGIN_MAX_FAILURES_PER_ACCOUNT]] as const)
      : ([
          [`acct:${account}`, config.LOGIN_MAX_FAILURES_PER_ACCOUNT],
          [`ip:${ip}`, config.LOGIN_MAX_FAILURES_PER_ADDRESS],
        ] as const);
    // The keys in one transaction: one turn of SQLite's single writer instead of three (a login
    // during a batch commit waits for the writer at each turn), and a refusal of the second key
    // rolls back the first, so nothing is spent when nothing is checked.
    const taken = await db.transaction().execute(async (trx) => {
      const r = createAuthRepository(trx);
      const taken: Reservation = [];
      for (const [key, limit] of limits) {
        const windowStart = await r.reserveAttempt(key, now, windowMs, limit);
        if (windowStart === undefined) {
          throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'loginThrottled', null, {
            minutes: Math.ceil(config.LOGIN_THROTTLE_WINDOW_SECONDS / 60),
          });
        }
        taken.push({ key, windowStart });
      }
      return taken;
    });
    // A window begun now: rows of windows that are over go (guessed names would pile up). After
    // the commit, not inside it: on PostgreSQL the delete could wait on a row another login's
    // transaction holds while that one waits on ours.
    if (taken.some((t) => t.windowStart === now)) await repo.deleteAttemptsBefore(now - windowMs);
    return taken;
  }

  async function releaseAttempt(taken: Reservation, r: AuthRepository = repo) {
    for (const t of taken) await r.releaseAttempt(t.key, t.windowStart);
  }

  /**
   * The account an operator acts on (finding 11 of issue 10): not their own (an operator
   * could lock itself out, or end the session it is using) and not one of a higher role
   * (an operator disabled the admin). Roles do not change through the API, so the check
   * cannot go stale between it and the write.
   */
  async function managedUser(actor: Actor, userName: string) {
    const user = await repo.findUserByName(userName);
    if (!user) throw AppError.field('userName', 'userNotFound');
    if (user.id === actor.userId) throw AppError.forbidden('cannotActOnSelf');
    if ((roleRank[user.role as Role] ?? Number.MAX_SAFE_INTEGER) > roleRank[actor.role]) {
      throw AppError.forbidden('cannotActOnHigherRole');
    }
    return user;
  }

  /** Checks a token row against expiry, rotation and the session's end. */
  function assertLive(row: NonNullable<Awaited<ReturnType<typeof repo.findToken>>>, allowExpired: boolean) {
    if (row.ended_at) {
      const key = endReasonMessage[row.end_reason ?? ''];
      // Logged out here: just unauthorised. Ended by something else: 430 says which.
      if (key) throw new AppError(ErrorCode.SESSION_ENDED, key);
      throw AppError.unauthorized();
    }
    if (row.disabled) throw new AppError(ErrorCode.SESSION_ENDED, 'sessionEndedDisabled');
    if (row.rotated_at) throw AppError.unauthorized('tokenExpired');
    if (!allowExpired && row.access_expires_at <= iso()) throw AppError.unauthorized('tokenExpired');
  }

  return {
    async login(input: { name: string; password: string; uuid?: string }, ip: string, userAgent: string | null) {
      const attempt = await reserveAttempt(input.name, ip);
      const user = await repo.findUserByName(input.name);
      // Verify even for an unknown user so the answer takes as long and says the same.
      const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
      // A failure keeps its attempt: that is what the window counts.
      if (!user || !ok || user.disabled) throw AppError.badRequest('badLogin');
      // The success gives its attempt back in the session's own transaction (one writer turn).
      // The address is known from now (finding 6 of issue 26): its own throttle window next time.
      const now = clock().getTime();
      const session = await db.transaction().execute(async (trx) => {
        await releaseAttempt(attempt, createAuthRepository(trx));
        await createAuthRepository(trx).rememberAddress(input.name.toLowerCase(), ip, now);
        const sessionId = await createAuthRepository(trx).createSession({
          userId: user.id,
          uuid: input.uuid ?? null,
          ip,
          userAgent,
          now: iso(),
        });
        return { ...(await issueToken(trx, sessionId)), mustChangePassword: user.must_change_password === 1 };
      });
      // After the commit, like the attempts' cleanup: a delete inside could wait on a row another
      // login's transaction holds while that one waits on ours (PostgreSQL).
      await repo.forgetAddressesBefore(input.name.toLowerCase(), now - KNOWN_ADDRESS_MS);
      return session;
    },

    /** Resolves the caller of an authenticated call. */
    async authenticate(token: string | null): Promise<Actor> {
      if (!token) throw AppError.unauthorized();
      // An API key opens the v1 API only (issue 39): said plainly rather than as an unknown session.
      if (token.startsWith(KEY_START)) throw AppError.unauthorized('apiKeyNotForConsole');
      const hash = sha256(token);
      const row = await tokens(hash, () => repo.findToken(hash));
      if (!row) throw AppError.unauthorized();
      assertLive(row, false);
      if (clock().getTime() - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS)
        await repo.touchSession(row.session_id, iso());
      return {
        userId: row.user_id,
        name: row.name,
        displayName: row.display_name,
        role: row.role as Role,
        customerId: row.customer_id,
        sessionId: row.session_id,
        permissions: await permissionsOf(row.role),
        mustChangePassword: row.must_change_password === 1,
      };
    },

    async me(actor: Actor) {
      const accessed = routeCatalogue.filter((r) => actor.permissions.has(r.name));
      const customer = actor.customerId ? ((await repo.customerOf(actor.customerId)) ?? null) : null;
      return {
        name: actor.name,
        displayName: actor.displayName,
        roles: [actor.role],
        accessedRoutes: accessed.map((r: RouteEntry) => ({ ...r, roles: r.roles ? [...r.roles] : undefined })),
        permissions: accessed.map((r) => ({ name: r.name })),
        customer,
        mustChangePassword: actor.mustChangePassword === true,
      };
    },

    async logout(actor: Actor) {
      await repo.endSession(actor.sessionId, 'logout', iso());
      return null;
    },

    /** Rotation: the presented token dies; a second use of it is refused. */
    async refresh(token: string | null) {
      if (!token) throw AppError.unauthorized();
      // An API key opens the v1 API only (issue 39): said plainly rather than as an unknown session.
      if (token.startsWith(KEY_START)) throw AppError.unauthorized('apiKeyNotForConsole');
      const hash = sha256(token);
      const row = await repo.findToken(hash);
      if (!row) throw AppError.unauthorized();
      assertLive(row, true);
      if (row.refresh_expires_at <= iso()) throw AppError.unauthorized('refreshFailed');
      return db.transaction().execute(async (trx) => {
        if (!(await createAuthRepository(trx).rotateToken(hash, iso()))) throw AppError.unauthorized('tokenExpired');
        return issueToken(trx, row.session_id);
      });
    },

    /** The old password is a password guess too: the login throttle guards it. */
    async updatePassword(actor: Actor, input: { old_password: string; password: string }, ip: string) {
      const attempt = await reserveAttempt(actor.name, ip);
      const user = await repo.findUserById(actor.userId);
      if (!user || !(await verifyPassword(input.old_password, user.password_hash))) {
        throw AppError.field('old_password', 'wrongOldPassword');
      }
      await releaseAttempt(attempt);
      if (input.old_password === input.password) throw AppError.field('password', 'samePassword');
      const problems = passwordProblems(input.password, { userName: user.name, isCommon: isCommonPassword });
      if (problems.length) throw AppError.validation({ password: problems.map((p) => `password_${p}`) });
      const hash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        const r = createAuthRepository(trx);
        await r.setPassword(actor.userId, hash, iso());
        await r.endSessionsOfUser(actor.userId, 'password_changed', iso(), actor.sessionId);
      });
      return null;
    },

    // Both write their audit row in the change's transaction, with the same actions as the
    // System menu's calls (admin/user/*), so the log reads the same whichever page was used.
    async endSessionsOf(who: AuditWho & { actor: Actor }, userName: string) {
      const user = await managedUser(who.actor, userName);
      return db.transaction().execute(async (trx) => {
        const ended = await createAuthRepository(trx).endSessionsOfUser(user.id, 'operator', iso());
        await audit(trx, who, { action: 'user.endSessions', target: `user:${user.name}`, detail: { ended } }, clock());
        return { ended };
      });
    },

    /** The operators' session page: live sessions of every account, the caller's own marked. */
    async sessions(actor: Actor, f: SessionListRequest) {
      const { total, list } = await repo.sessionPage(f, iso());
      return {
        total,
        list: list.map((s) => ({
          id: s.id,
          userName: s.user_name,
          displayName: s.display_name,
          role: s.role as Role,
          customerCode: s.customer_code,
          uuid: s.uuid,
          userAgent: s.user_agent,
          ip: s.ip,
          createdAt: s.created_at,
          lastSeenAt: s.last_seen_at,
          current: s.id === actor.sessionId,
        })),
      };
    },

    /**
     * Ends one session (its browser gets 430 at its next call), under the rules of ending all of
     * an account's: not the operator's own account, not a higher role's. The end is conditional
     * in its statement, so two operators ending it at once end it once (the other: 404), and
     * audited in its transaction.
     */
    async endOneSession(who: AuditWho & { actor: Actor }, id: number) {
      const s = await repo.liveSession(id, iso());
      if (!s) throw new AppError(ErrorCode.NOT_FOUND, 'sessionNotFound');
      if (s.user_id === who.actor.userId) throw AppError.forbidden('cannotActOnSelf');
      if ((roleRank[s.role as Role] ?? Number.MAX_SAFE_INTEGER) > roleRank[who.actor.role]) {
        throw AppError.forbidden('cannotActOnHigherRole');
      }
      await db.transaction().execute(async (trx) => {
        if (!(await createAuthRepository(trx).endSessionOnce(id, 'operator', iso()))) {
          throw new AppError(ErrorCode.NOT_FOUND, 'sessionNotFound');
        }
        await audit(
          trx,
          who,
          { action: 'user.endSession', target: `user:${s.user_name}`, detail: { session: id } },
          clock(),
        );
      });
      return null;
    },

    async setDisabled(who: AuditWho & { actor: Actor }, userName: string, disabled: boolean) {
      const user = await managedUser(who.actor, userName);
      await db.transaction().execute(async (trx) => {
        const r = createAuthRepository(trx);
        await r.setDisabled(user.id, disabled);
        if (disabled) await r.endSessionsOfUser(user.id, 'disabled', iso());
        await audit(
          trx,
          who,
          { action: disabled ? 'user.disable' : 'user.enable', target: `user:${user.name}` },
          clock(),
        );
      });
      return null;
    },

    async settings(actor: Actor) {
      const rows = await repo.settingsOf(actor.userId);
      return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
    },

    async saveSetting(actor: Actor, key: string, value: unknown, seq?: string) {
      // At most 15 digits (the contract): below 2^53, so a number holds it exactly.
      const stamp = seq === undefined ? undefined : { seq: Number(seq), sessionId: actor.sessionId };
      await repo.saveSetting(actor.userId, key, JSON.stringify(value), iso(), stamp);
      return null;
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
