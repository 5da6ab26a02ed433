import { ErrorCode } from '@console/contract';
import type { Claim, V1Idempotency } from '../../http/register-v1.ts';
import { sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { Database } from '../../db/database.ts';
import { createIdempotencyRepository } from './idempotency.repository.ts';

/** How long a stored answer is replayed (Stripe's convention, which integrators expect). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * A first request still "running" after this long died with its instance (no v1 call runs this
 * long: the body limit and a single create bound it); a repeat then runs it anew.
 */
const STALE_RUNNING_MS = 120_000;

/**
 * `Idempotency-Key` on v1 POSTs (issue 39). The first request under a key claims it with one
 * insert (the primary key decides between racers on any instance); repeats with the same request
 * get its stored answer, or 409 `requestInProgress` while it runs; another request under the same
 * key is refused (422 `idempotencyKeyReused`). Only successes are stored: a failed request changed
 * nothing, so its key is freed and a retry runs anew (a refusal for a full quota may pass later).
 */
export function createIdempotency({ db, clock }: { db: Database; clock: () => Date }): V1Idempotency & {
  sweep(): Promise<number>;
} {
  const repo = createIdempotencyRepository(db);
  return {
    requestHash: (method: string, path: string, body: unknown) =>
      sha256(`${method} ${path}\n${JSON.stringify(body ?? null)}`),

    async claim(keyId: number, idemKey: string, requestHash: string): Promise<Claim> {
      // Two rounds: a row taken over by another repeat between our read and our update is read again.
      for (let round = 0; round < 2; round++) {
        const now = clock();
        const at = now.toISOString();
        if (await repo.claim(keyId, idemKey, requestHash, at)) return { kind: 'run', startedAt: at };
        const row = await repo.find(keyId, idemKey);
        if (!row) continue; // released meanwhile: claim again
        const age = now.getTime() - Date.parse(row.started_at);
        const expired = age >= IDEMPOTENCY_TTL_MS;
        if (!expired && row.request_hash !== requestHash)
          throw AppError.validation({ idempotencyKey: ['idempotencyKeyReused'] });
        if (!expired && row.answer_status !== null) {
          return { kind: 'replay', status: row.answer_status, body: row.answer_body ?? '' };
        }
        if (!expired && age < STALE_RUNNING_MS) throw new AppError(ErrorCode.CONFLICT, 'requestInProgress');
        if (await repo.takeOver(keyId, idemKey, row.started_at, requestHash, at)) return { kind: 'run', startedAt: at };
      }
      throw new AppError(ErrorCode.CONFLICT, 'requestInProgress');
    },

    answered: (keyId: number, idemKey: string, status: number, body: string) =>
      repo.answer(keyId, idemKey, status, body),
    released: (keyId: number, idemKey: string, startedAt: string) => repo.release(keyId, idemKey, startedAt),
    sweep: () => repo.sweep(new Date(clock().getTime() - IDEMPOTENCY_TTL_MS).toISOString()),
  };
}
export type Idempotency = ReturnType<typeof createIdempotency>;
