import type { Database } from '../../db/database.ts';

/** The SQL of stored v1 answers (`idempotency_keys`, migration 2026-12-06T2140). */
export function createIdempotencyRepository(db: Database) {
  return {
    /**
     * Takes the key for this request: true when this request inserted the row (it runs), false
     * when a row was there (another request took the key first). One insert, so of two requests
     * at once on any instances exactly one gets true: the primary key decides.
     */
    async claim(apiKeyId: number, idemKey: string, requestHash: string, at: string): Promise<boolean> {
      const r = await db
        .insertInto('idempotency_keys')
        .values({ api_key_id: apiKeyId, idem_key: idemKey, request_hash: requestHash, started_at: at })
        .onConflict((oc) => oc.columns(['api_key_id', 'idem_key']).doNothing())
        .returning('api_key_id')
        .executeTakeFirst();
      return r !== undefined;
    },
    find(apiKeyId: number, idemKey: string) {
      return db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'started_at', 'answer_status', 'answer_body'])
        .where('api_key_id', '=', apiKeyId)
        .where('idem_key', '=', idemKey)
        .executeTakeFirst();
    },
    /**
     * Takes over a row whose first request is gone (past the key's life, or running longer than a
     * request can: its instance died): only if it is still the row that was read, so of two
     * requests taking it over at once one wins.
     */
    async takeOver(apiKeyId: number, idemKey: string, seenStartedAt: string, requestHash: string, at: string) {
      const r = await db
        .updateTable('idempotency_keys')
        .set({ request_hash: requestHash, started_at: at, answer_status: null, answer_body: null })
        .where('api_key_id', '=', apiKeyId)
        .where('idem_key', '=', idemKey)
        .where('started_at', '=', seenStartedAt)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async answer(apiKeyId: number, idemKey: string, status: number, body: string) {
      await db
        .updateTable('idempotency_keys')
        .set({ answer_status: status, answer_body: body })
        .where('api_key_id', '=', apiKeyId)
        .where('idem_key', '=', idemKey)
        .execute();
    },
    /** A request that failed changed nothing: its key is freed so a retry runs anew. */
    async release(apiKeyId: number, idemKey: string, startedAt: string) {
      await db
        .deleteFrom('idempotency_keys')
        .where('api_key_id', '=', apiKeyId)
        .where('idem_key', '=', idemKey)
        .where('started_at', '=', startedAt)
        .where('answer_status', 'is', null)
        .execute();
    },
    async sweep(before: string): Promise<number> {
      const r = await db.deleteFrom('idempotency_keys').where('started_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
