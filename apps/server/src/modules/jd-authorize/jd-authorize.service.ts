import { randomBytes } from 'node:crypto';
import { ErrorCode, jdAuthorize as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import type { JdAuthorizationsTable } from '../../db/schema-jd.ts';
import { sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { StaffWrite } from '../../lib/staff-writes.ts';
import { JdError, type JdClient, type JdTokens } from './jd-client.ts';
import { createJdAuthorizeRepository, type JdRecord, type JdValues, NO_TOKENS } from './jd-authorize.repository.ts';

/** What each sealed column is for: the AAD, so a ciphertext cannot be moved to another column. */
export const PURPOSE = {
  secret: 'jd_authorizations.app_secret',
  access: 'jd_authorizations.access_token',
  refresh: 'jd_authorizations.refresh_token',
} as const;

/** A state lives long enough to log in at JD and agree, not longer. */
export const STATE_TTL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Keeps two characters at each end (four when long): enough to tell two secrets apart. */
export function maskSecret(s: string): string {
  if (s.length <= 4) return '*'.repeat(s.length);
  const keep = s.length >= 16 ? 4 : 2;
  return `${s.slice(0, keep)}${'*'.repeat(Math.min(8, s.length - 2 * keep))}${s.slice(-keep)}`;
}

const isoOf = (t: string | Date) => new Date(t).toISOString();

type Fields = {
  appKey: string;
  customerCode: string;
  isvSource: string;
  deptNo: string;
  platformId: string;
  platformName: string;
};
const values = (f: Fields): JdValues => ({
  app_key: f.appKey,
  customer_code: f.customerCode,
  isv_source: f.isvSource,
  dept_no: f.deptNo,
  platform_id: f.platformId,
  platform_name: f.platformName,
});

export interface JdAuthorizeDeps {
  db: Database;
  clock: () => Date;
  box: SecretBox;
  jd: JdClient;
  /** JD's callback, from configuration (JD_REDIRECT_URI, else PUBLIC_URL's); null: authorization refused. */
  redirectUri: string | null;
}

/**
 * JD authorizations: a customer's JD apps (secret sealed), the OAuth 2 dance with JD and the
 * tokens it grants (sealed, answered masked). A state is made for one user and one
 * authorization, stored hashed, taken once and expires; the code is exchanged only by the user
 * the state was made for, inside that user's scope.
 */
/** A JD app as its audit rows show it (issue 36 #6): no secret or token, only when it was authorized. */
const imageOf = (
  r: Pick<
    JdAuthorizationsTable,
    | 'app_key'
    | 'customer_code'
    | 'isv_source'
    | 'dept_no'
    | 'platform_id'
    | 'platform_name'
    | 'token_expires_at'
    | 'authorized_at'
  >,
) => ({
  app_key: r.app_key,
  customer_code: r.customer_code,
  isv_source: r.isv_source,
  dept_no: r.dept_no,
  platform_id: r.platform_id,
  platform_name: r.platform_name,
  authorized_at: r.authorized_at,
  token_expires_at: r.token_expires_at,
});

export function createJdAuthorizeService(deps: JdAuthorizeDeps) {
  const { db, clock, box, jd } = deps;
  const repo = createJdAuthorizeRepository(db);
  const now = () => clock().toISOString();

  function present(r: JdRecord): C.JdAuthorizeRow {
    const t = clock().getTime();
    const expiresAt = r.token_expires_at ? new Date(r.token_expires_at).getTime() : null;
    const authorized = r.access_token_mask != null;
    const expired = authorized && expiresAt != null && expiresAt <= t;
    return {
      id: r.id,
      customerId: r.customer_id,
      ownerCode: r.owner_code,
      appKey: r.app_key,
      appSecretMasked: r.app_secret_mask,
      customerCode: r.customer_code,
      isvSource: r.isv_source,
      deptNo: r.dept_no,
      platformId: r.platform_id,
      platformName: r.platform_name,
      authorized,
      accessTokenMasked: r.access_token_mask ?? '',
      openId: r.open_id ?? '',
      tokenExpiresAt: expiresAt != null ? new Date(expiresAt).toISOString() : null,
      authorizedAt: r.authorized_at ? isoOf(r.authorized_at) : null,
      expiringSoon: authorized && !expired && expiresAt != null && expiresAt - t <= C.JD_EXPIRY_WARNING_DAYS * DAY_MS,
      expired,
      createdAt: isoOf(r.created_at),
      updatedAt: isoOf(r.updated_at),
    };
  }

  async function loadScoped(scope: Scope, id: number) {
    const r = await repo.find(scope, id);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'jdAuthorizeNotFound');
    return r;
  }

  /** JD's refusals and failures as the caller's message; never the URL (it carries the secret). */
  async function askJd(run: () => Promise<JdTokens>): Promise<JdTokens> {
    try {
      return await run();
    } catch (e) {
      if (e instanceof JdError) {
        throw AppError.badRequest(e.jdCode === -1 ? 'jdUnreachable' : 'jdRefused', {
          code: e.jdCode,
          msg: e.jdMessage.slice(0, 200),
        });
      }
      throw e;
    }
  }

  async function store(id: number, appKey: string, tokens: JdTokens) {
    const at = clock();
    await repo.storeTokens(id, appKey, {
      access_token_enc: box.seal(tokens.accessToken, PURPOSE.access),
      access_token_mask: maskSecret(tokens.accessToken),
      refresh_token_enc: tokens.refreshToken ? box.seal(tokens.refreshToken, PURPOSE.refresh) : null,
      open_id: tokens.openId || tokens.uid || null,
      token_expires_at: new Date(at.getTime() + tokens.expiresIn * 1000).toISOString(),
      authorized_at: at.toISOString(),
      updated_at: at.toISOString(),
    });
  }

  const service = {
    async page(scope: Scope, f: C.JdAuthorizeListRequest) {
      const t = clock().getTime();
      const soon = new Date(t + C.JD_EXPIRY_WARNING_DAYS * DAY_MS).toISOString();
      const { total, rows } = await repo.page(scope, f, new Date(t).toISOString(), soon);
      return { total, list: rows.map(present) };
    },

    async select(scope: Scope, customerId?: number) {
      const rows = await repo.options(scope, customerId);
      return rows.map((r) => ({
        id: r.id,
        label: r.platform_name ? `${r.platform_name} (${r.app_key})` : r.app_key,
        authorized: r.access_token_enc != null,
      }));
    },

    async info(scope: Scope, id: number) {
      return present(await loadScoped(scope, id));
    },

    async create(actor: Actor, scope: Scope, input: Fields & { appSecret: string; customerId?: number }) {
      const customerId = customerFor(actor, scope, input.customerId);
      // Staff see every customer: a made-up id is the field's error, not the database's (issue 36 #11).
      if (scope.all && !(await repo.customerExists(customerId))) throw AppError.field('customerId', 'customerNotFound');
      const at = now();
      const { id } = await repo.insert({
        ...values(input),
        ...NO_TOKENS,
        customer_id: customerId,
        app_secret_enc: box.seal(input.appSecret, PURPOSE.secret),
        app_secret_mask: maskSecret(input.appSecret),
        created_by: actor.userId,
        created_at: at,
        updated_at: at,
      });
      return present(await loadScoped(scope, id));
    },

    async update(staff: StaffWrite, scope: Scope, input: Fields & { id: number; appSecret?: string }) {
      const before = await loadScoped(scope, input.id);
      const newSecret = input.appSecret ? input.appSecret : null;
      // Tokens belong to the app JD granted them to: a new key or secret starts over.
      const appChanged = before.app_key !== input.appKey || newSecret != null;
      const ok = await repo.update(scope, input.id, {
        ...values(input),
        ...(newSecret
          ? { app_secret_enc: box.seal(newSecret, PURPOSE.secret), app_secret_mask: maskSecret(newSecret) }
          : {}),
        ...(appChanged ? NO_TOKENS : {}),
        updated_at: now(),
      });
      if (!ok) throw new AppError(ErrorCode.NOT_FOUND, 'jdAuthorizeNotFound');
      const after = await loadScoped(scope, input.id);
      // Staff's edit of a customer's credential (issue 36 #6): the fields before and after, the
      // secret and tokens withheld (lib/staff-writes.ts). The update is one statement, so the row follows it.
      await staff.record(db, {
        target: `jdAuthorize:${input.id}`,
        customerId: before.customer_id,
        before: imageOf(before),
        after: imageOf(after),
      });
      return present(after);
    },

    /** Staff's removal of a customer's credential keeps its before-image (secret withheld) in the audit log. */
    async remove(staff: StaffWrite, scope: Scope, id: number) {
      const removed = await repo.remove(scope, id, (trx, row) =>
        staff.record(trx, {
          target: `jdAuthorize:${id}`,
          customerId: row.customer_id,
          before: imageOf(row),
          after: null,
        }),
      );
      if (!removed) throw new AppError(ErrorCode.NOT_FOUND, 'jdAuthorizeNotFound');
      return null;
    },

    async authorizeUrl(actor: Actor, scope: Scope, id: number) {
      const r = await loadScoped(scope, id);
      // Never guessed from the request (finding 11 of issue 26): a forged Host would send JD's code
      // to another server. Refused before a state is made, so nothing waits for a callback.
      const redirect = deps.redirectUri;
      if (!redirect) throw AppError.conflict('jdPublicUrlMissing');
      const state = randomBytes(24).toString('base64url');
      const t = clock().getTime();
      const expiresAt = new Date(t + STATE_TTL_MS).toISOString();
      await repo.pruneStates(new Date(t - DAY_MS).toISOString());
      await repo.insertState({
        state_hash: sha256(state),
        authorization_id: r.id,
        user_id: actor.userId,
        expires_at: expiresAt,
        created_at: new Date(t).toISOString(),
      });
      return { url: jd.authorizeUrl(r.app_key, redirect, state), expiresAt };
    },

    async exchange(actor: Actor, scope: Scope, code: string, state: string) {
      const id = await repo.takeState(sha256(state), actor.userId, now());
      if (id == null) throw AppError.field('state', 'jdStateInvalid');
      const s = await repo.secrets(scope, id);
      // The state was made in scope; the customer may have left the agent's scope since.
      if (!s) throw new AppError(ErrorCode.NOT_FOUND, 'jdAuthorizeNotFound');
      const tokens = await askJd(() => jd.exchangeCode(s.app_key, box.open(s.app_secret_enc, PURPOSE.secret), code));
      await store(id, s.app_key, tokens);
      return present(await loadScoped(scope, id));
    },

    async renew(scope: Scope, id: number) {
      const s = await repo.secrets(scope, id);
      if (!s) throw new AppError(ErrorCode.NOT_FOUND, 'jdAuthorizeNotFound');
      if (!s.refresh_token_enc) throw AppError.conflict('jdNotAuthorized');
      const tokens = await askJd(() =>
        jd.refresh(
          s.app_key,
          box.open(s.app_secret_enc, PURPOSE.secret),
          box.open(s.refresh_token_enc!, PURPOSE.refresh),
        ),
      );
      // JD may answer without a new refresh token: the old one stays good.
      if (!tokens.refreshToken) tokens.refreshToken = box.open(s.refresh_token_enc, PURPOSE.refresh);
      await store(id, s.app_key, tokens);
      return present(await loadScoped(scope, id));
    },

    /**
     * The renewal job: every authorization whose access token would show "expiring soon" (or has
     * expired) is renewed with its stored refresh token, so a token lapses only when JD refuses;
     * the list's warning then means the automatic renewal failed. One failure stops no other.
     */
    async renewDue(): Promise<{ renewed: number; failed: { id: number; error: unknown }[] }> {
      const by = new Date(clock().getTime() + C.JD_EXPIRY_WARNING_DAYS * DAY_MS).toISOString();
      let renewed = 0;
      const failed: { id: number; error: unknown }[] = [];
      for (const { id } of await repo.renewable(by)) {
        try {
          await service.renew({ all: true }, id);
          renewed += 1;
        } catch (error) {
          failed.push({ id, error });
        }
      }
      return { renewed, failed };
    },
  };
  return service;
}
export type JdAuthorizeService = ReturnType<typeof createJdAuthorizeService>;
