import type { Generated } from 'kysely';

/** Tables of JD authorizations (modules/jd-authorize, migration 2026-11-24T1335). */
type Time = string;

export interface JdAuthorizationsTable {
  id: Generated<number>;
  customer_id: number;
  app_key: string;
  /** AES-256-GCM (lib/secret-box.ts); never answered, never logged. */
  app_secret_enc: string;
  app_secret_mask: string;
  /** JD's customer code (商家编码). */
  customer_code: string;
  isv_source: string;
  dept_no: string;
  platform_id: string;
  platform_name: string;
  access_token_enc: string | null;
  access_token_mask: string | null;
  refresh_token_enc: string | null;
  open_id: string | null;
  token_expires_at: Time | null;
  authorized_at: Time | null;
  created_by: number | null;
  created_at: Time;
  updated_at: Time;
}

export interface JdOauthStatesTable {
  /** SHA-256 (hex) of the state sent to JD. */
  state_hash: string;
  authorization_id: number;
  user_id: number;
  expires_at: Time;
  used_at: Time | null;
  created_at: Time;
}

export interface JdTables {
  jd_authorizations: JdAuthorizationsTable;
  jd_oauth_states: JdOauthStatesTable;
}
