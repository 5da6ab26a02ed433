import { randomBytes } from 'node:crypto';
import { type apiKeys as Contract, type CallParsed, ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { createApiKeysRepository, type KeyOwner } from './api-keys.repository.ts';

/** Every key starts so: a scanner (GitHub's, a log filter) can tell one, and the v1 door can refuse anything else early. */
export const KEY_START = 'ck_live_';

/**
 * A new key: `ck_live_<prefix>_<secret>`. The prefix (8 base32 characters, 40 bits) names the key
 * in lists; the secret is 32 random bytes (256 bits). Only SHA-256 of the whole key is stored:
 * a slow hash (scrypt, as for passwords) protects secrets a person chose and an attacker can
 * guess; nobody can guess 256 random bits, so a fast hash is as safe here and costs microseconds
 * on every API request instead of ~50 ms.
 */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = KEY_START + base32(randomBytes(5));
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: sha256(key) };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

type CreateInput = CallParsed<typeof Contract.apiKeyCreate>;

/** Making, listing and revoking API keys from the console (issue 39). */
export function createApiKeysService({ db, clock }: { db: Database; clock: () => Date }) {
  const repo = createApiKeysRepository(db);

  /** A customer sees its customer's keys, an agent its own, the admin (scope: all) every key. */
  function ownerOf(actor: Actor, scope: Scope): KeyOwner {
    if (scope.all) return 'all';
    if (actor.role === 'agent') return { agentUserId: actor.userId };
    if (actor.role === 'customer' && actor.customerId) return { customerId: actor.customerId };
    throw AppError.forbidden();
  }

  type KeyRow = NonNullable<Awaited<ReturnType<typeof repo.one>>>;
  const toRow = (r: KeyRow): Contract.ApiKeyRow => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: JSON.parse(r.scopes),
    customerId: r.customer_id,
    customerCode: r.customer_code,
    customerIds: r.customer_ids,
    customers: r.customers,
    createdBy: r.created_by_name,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  });

  return {
    async list(actor: Actor, scope: Scope, f: Contract.ApiKeyListRequest) {
      const page = await repo.page(ownerOf(actor, scope), f);
      return { total: page.total, list: page.list.map(toRow) };
    },

    async create(who: AuditWho & { actor: Actor }, input: CreateInput) {
      const { actor } = who;
      // A key acts for a customer (or an agent's customers): staff have no tenant to give it.
      if (actor.role !== 'customer' && actor.role !== 'agent') throw AppError.forbidden('apiKeyNotForStaff');
      if (actor.role === 'customer' && !actor.customerId) throw AppError.forbidden();
      const now = clock();
      if (input.expiresAt && Date.parse(input.expiresAt) <= now.getTime()) {
        throw AppError.field('expiresAt', 'apiKeyExpiryPast');
      }
      const customerIds = [...new Set(input.customerIds)].sort((a, b) => a - b);
      if (customerIds.length) {
        // Only an agent's key is limited, and only to its own customers.
        const allowed = actor.role === 'agent' ? new Set(await repo.agentCustomerIds(actor.userId)) : new Set<number>();
        if (customerIds.some((id) => !allowed.has(id))) throw AppError.field('customerIds', 'customerOutOfScope');
      }
      const scopes = [...new Set(input.scopes)];
      const fresh = newApiKey();
      const id = await db.transaction().execute(async (trx) => {
        const keyId = await repo.insert(trx, {
          name: input.name,
          prefix: fresh.prefix,
          secretHash: fresh.hash,
          scopes,
          customerId: actor.role === 'customer' ? actor.customerId : null,
          agentUserId: actor.role === 'agent' ? actor.userId : null,
          createdBy: actor.userId,
          createdAt: now.toISOString(),
          expiresAt: input.expiresAt ?? null,
          customerIds,
        });
        // Never the key itself: its prefix names it.
        await audit(trx, who, {
          action: 'apiKey.create',
          target: `apiKey:${fresh.prefix}`,
          detail: { name: input.name, scopes, expiresAt: input.expiresAt ?? null, customerIds },
        });
        return keyId;
      });
      return { ...toRow((await repo.one(id))!), key: fresh.key };
    },

    async revoke(who: AuditWho & { actor: Actor }, scope: Scope, id: number) {
      const key = await repo.owner(id);
      const owner = ownerOf(who.actor, scope);
      const mine =
        key &&
        (owner === 'all' ||
          ('customerId' in owner && key.customer_id === owner.customerId) ||
          ('agentUserId' in owner && key.agent_user_id === owner.agentUserId));
      // Another tenant's key is as unknown as a missing one.
      if (!key || !mine) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      if (key.revoked_at) return null;
      await db.transaction().execute(async (trx) => {
        if ((await repo.revoke(trx, id, who.actor.userId, clock().toISOString())) === 0) return;
        await audit(trx, who, { action: 'apiKey.revoke', target: `apiKey:${key.prefix}` });
      });
      return null;
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
