import type { Generated } from 'kysely';

type Time = string;
type Flag = number;

/** Tables of accounts: users, customers, roles, sessions and their throttles, settings. */
export interface UsersTable {
  id: Generated<number>;
  /** Bumped by the database on every update of the row; edit forms save against it (migration 2026-11-27T0460). */
  version: Generated<number>;
  name: string;
  display_name: string;
  password_hash: string;
  role: string;
  customer_id: number | null;
  disabled: Generated<Flag>;
  created_at: Time;
  password_changed_at: Time;
  /** Made or reset with a one-time password: every call but the change is refused (migration 2026-11-24T1345). */
  must_change_password: Generated<Flag>;
}
export interface CustomersTable {
  id: Generated<number>;
  /** Bumped by the database on every update of the row; edit forms save against it (migration 2026-11-27T0460). */
  version: Generated<number>;
  code: string;
  name: string;
  agent_user_id: number | null;
  created_at: Time;
  /** The customer's contact (migration 2026-11-24T1345). */
  contact_name: Generated<string>;
  contact_phone: Generated<string>;
  contact_email: Generated<string>;
}
export interface RolePermissionsTable {
  role: string;
  route_name: string;
}
export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  uuid: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: Time;
  last_seen_at: Time;
  ended_at: Time | null;
  end_reason: string | null;
}
export interface SessionTokensTable {
  token_hash: string;
  session_id: number;
  access_expires_at: Time;
  refresh_expires_at: Time;
  rotated_at: Time | null;
}
/** One row per throttled key (`acct:<name>`, `ip:<address>`, `known:<address> <name>`): attempts in the window begun at window_start (epoch ms). */
export interface LoginAttemptsTable {
  key: string;
  window_start: number;
  attempts: number;
}
/** Where an account has logged in from (account lower-cased, epoch ms): such a pair has its own throttle window. */
export interface LoginKnownAddressesTable {
  account: string;
  address: string;
  last_success_at: number;
}
export interface UserSettingsTable {
  user_id: number;
  key: string;
  value: string;
  updated_at: Time;
  /** The save's sequence stamp: an older save arriving late is ignored (migration 2026-11-24T0855). */
  seq: Generated<number>;
  /** The session (browser) whose save wrote it: stamps compare within one browser only. */
  session_id: number | null;
}
/** A customer's allowed channels: none = every channel (migration 2026-11-24T1400). */
export interface CustomerChannelsTable {
  customer_id: number;
  channel_code: string;
}
export interface AccountTables {
  users: UsersTable;
  customers: CustomersTable;
  customer_channels: CustomerChannelsTable;
  role_permissions: RolePermissionsTable;
  sessions: SessionsTable;
  session_tokens: SessionTokensTable;
  login_attempts: LoginAttemptsTable;
  login_known_addresses: LoginKnownAddressesTable;
  user_settings: UserSettingsTable;
}
