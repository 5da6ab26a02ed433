import type { ApiCaller, RateState, V1Auth } from '../../http/register-v1.ts';
import { sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { Scope } from '../../lib/scope.ts';
import type { Database } from '../../db/database.ts';
import { createApiKeysRepository } from './api-keys.repository.ts';
import { KEY_START } from './api-keys.service.ts';

const WINDOW_MS = 60_000;
/** Last use is a hint for people, not an audit: written at most once a minute per key. */
const TOUCH_EVERY_MS = 60_000;

export function createApiKeyAuth({
  db,
  clock,
  perMinute,
}: {
  db: Database;
  clock: () => Date;
  perMinute: number;
}): V1Auth {
  const repo = createApiKeysRepository(db);
  return {
    /**
     * The caller of a v1 request. The key is read from the database on every request (no cache),
     * so a revocation holds on every instance from the next request on. A console session token
     * is refused by its shape before any lookup: the two doors never share a credential.
     */
    async authenticate(token: string | null): Promise<ApiCaller> {
      if (!token) throw AppError.unauthorized('apiKeyInvalid');
      if (!token.startsWith(KEY_START)) throw AppError.unauthorized('sessionNotForApi');
      const row = await repo.byHash(sha256(token));
      const now = clock();
      if (
        !row ||
        row.revoked_at ||
        (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) ||
        row.agent_disabled === 1
      ) {
        throw AppError.unauthorized('apiKeyInvalid');
      }
      if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= TOUCH_EVERY_MS) {
        await repo.touch(row.id, now.toISOString(), new Date(now.getTime() - TOUCH_EVERY_MS).toISOString());
      }
      const agent = row.agent_user_id !== null;
      const scope: Scope = agent
        ? { all: false, customerIds: await repo.agentKeyCustomers(row.id, row.agent_user_id!) }
        : { all: false, customerIds: row.customer_id ? [row.customer_id] : [] };
      return {
        keyId: row.id,
        prefix: row.prefix,
        scopes: new Set(JSON.parse(row.scopes)),
        scope,
        actor: {
          userId: row.created_by,
          name: row.created_by_name,
          displayName: row.created_by_display,
          role: agent ? 'agent' : 'customer',
          customerId: agent ? null : row.customer_id,
          sessionId: 0,
          permissions: new Set(),
        },
      };
    },

    /** Counts this request against the key's budget for the current minute (shared by every instance). */
    async rate(keyId: number): Promise<RateState> {
      const now = clock().getTime();
      const windowStart = now - (now % WINDOW_MS);
      const hits = await repo.hit(`apiKey:${keyId}`, windowStart);
      return {
        limit: perMinute,
        remaining: Math.max(0, perMinute - hits),
        resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
        exceeded: hits > perMinute,
      };
    },
  };
}
