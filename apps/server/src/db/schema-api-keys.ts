import type { Generated } from 'kysely';

type Time = string;

/** Tables of the v1 API's keys and stored answers (modules/api-keys, migration 2026-12-06T2140). */
export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  /** `ck_live_<8 chars>`: names the key in lists; never enough to use it. */
  prefix: string;
  /** SHA-256 (hex) of the whole key as sent; the key itself is never stored. */
  secret_hash: string;
  /** JSON list of scope names (`orders:read`, …). */
  scopes: string;
  /** A customer's key; null for an agent's. */
  customer_id: number | null;
  /** An agent's key; null for a customer's. */
  agent_user_id: number | null;
  created_by: number;
  created_at: Time;
  expires_at: Time | null;
  last_used_at: Time | null;
  revoked_at: Time | null;
  revoked_by: number | null;
}
export interface ApiKeyCustomersTable {
  api_key_id: number;
  customer_id: number;
}
export interface IdempotencyKeysTable {
  api_key_id: number;
  idem_key: string;
  /** SHA-256 of the method, path and body: another body under the same key is refused. */
  request_hash: string;
  started_at: Time;
  /** Null while the first request runs; then the status and JSON body replayed to every repeat. */
  answer_status: number | null;
  answer_body: string | null;
}
export interface ApiKeyTables {
  api_keys: ApiKeysTable;
  api_key_customers: ApiKeyCustomersTable;
  idempotency_keys: IdempotencyKeysTable;
}
