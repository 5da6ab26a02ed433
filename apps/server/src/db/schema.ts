import type { Generated } from 'kysely';
import type { BillTables } from './schema-bills.ts';
import type { ItemTables } from './schema-items.ts';
import type { LabelBTables } from './schema-label-b.ts';
import type { LifeTables } from './schema-life.ts';
import type { OrderReviewTables } from './schema-order-reviews.ts';
import type { JdTables } from './schema-jd.ts';
import type { JobTables } from './schema-jobs.ts';
import type { MeituanTables } from './schema-meituan.ts';
import type { PickupTables } from './schema-pickups.ts';
import type { StorageTables } from './schema-storage.ts';
import type { TaxTables } from './schema-tax.ts';

/**
 * Table types for Kysely, matching the migrations. Times are ISO-8601 UTC strings
 * on both engines; flags are 0/1; money is integer minor units.
 */
type Time = string;
type Flag = number;

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
export interface ChannelsTable {
  code: string;
  name_zh: string;
  name_en: string;
  currency: string;
  origin: string;
  template_kind: string;
  has_boxes: Flag;
  sort: number;
}
export interface CodedTable {
  code: string;
  name_zh: string;
  name_en: string;
}
export interface CurrenciesTable extends CodedTable {
  decimals: number;
}
export interface NumberSegmentsTable {
  id: Generated<number>;
  channel_code: string;
  customer_id: number | null;
  name: string;
  prefix: string;
  suffix: Generated<string>;
  scheme: string;
  next_seq: number;
  last_seq: number;
  /** Where the segment's range begins (migration 2026-11-24T1400): overlap checks use it. */
  first_seq: Generated<number>;
}
/**
 * A waybill range reserved for a batch commit (`batch_id`), or returned by one that never landed
 * (`batch_id` null: handed out again first). Migration 2026-11-27T0150; domain/waybills.ts.
 */
export interface WaybillReservationsTable {
  id: Generated<number>;
  segment_id: number;
  first_seq: number;
  last_seq: number;
  batch_id: number | null;
}
/** A customer's allowed channels: none = every channel (migration 2026-11-24T1400). */
export interface CustomerChannelsTable {
  customer_id: number;
  channel_code: string;
}
export interface ExportNominationsTable {
  id: Generated<number>;
  /** Bumped by the database on every update of the row; edit forms save against it (migration 2026-11-27T0460). */
  version: Generated<number>;
  customer_id: number;
  name_ja: string;
  name_en: string;
  corporate_number: string;
  address_en: string;
  tel: string;
  id_mark: Generated<string>;
  receive_email: Generated<string>;
  created_at: Time;
  deleted_at: Time | null;
  /** Last change (migration 2026-11-24T0900). */
  updated_at: Time | null;
}
export interface FilesTable {
  id: Generated<number>;
  customer_id: number | null;
  owner_user_id: number | null;
  kind: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: Time;
  /** 1: made by the server for a user; removed after FILE_RETENTION_DAYS (migration 2026-11-24T1340). */
  temporary: Generated<Flag>;
  /** When the retention cleanup removed its bytes. */
  expired_at: Time | null;
}
/** A download's progress, any instance reads it (lib/export-progress.ts). */
export interface ExportProgressTable {
  user_id: number;
  progress_id: string;
  phase: string;
  rows: number;
  total: number | null;
  updated_at: Time;
}
/** A render on the job queue and where its file went (modules/export-jobs/export-jobs.renders.ts). */
export interface ExportRendersTable {
  id: string;
  state: string;
  input_key: string;
  file_key: string | null;
  rendered_by: string | null;
  error: string | null;
  created_at: Time;
  updated_at: Time;
}
/** The bytes of stored files when the file store is the database (lib/storage-database.ts). */
export interface FileBlobsTable {
  key: string;
  data: Uint8Array;
  size: number;
  created_at: Time;
}
export interface BatchesTable {
  id: Generated<number>;
  batch_no: string;
  customer_id: number;
  channel_code: string;
  template_kind: string;
  export_nomination_id: number | null;
  clearance_company_code: string | null;
  file_id: number | null;
  error_file_id: number | null;
  status: string;
  progress: Generated<number>;
  total_rows: Generated<number>;
  valid_rows: Generated<number>;
  invalid_rows: Generated<number>;
  confirm_rows: Generated<number>;
  order_count: Generated<number>;
  receive_status: Generated<string>;
  error_message: string | null;
  created_by: number;
  created_at: Time;
  updated_at: Time;
  /** JSON of the import preview (migration 2026-11-21T1500-batches). */
  preview: string | null;
  heartbeat_at: Time | null;
  /** Storage key of the parsed orders awaiting confirmation (migration 2026-11-23T0530). */
  parsed_key: string | null;
  /** When an unconfirmed preview expires (PREVIEW_TTL_MINUTES). */
  preview_until: Time | null;
}
export interface OrdersTable {
  id: Generated<number>;
  /** Bumped by the database on every update of the row; edit forms save against it (migration 2026-11-27T0460). */
  version: Generated<number>;
  customer_id: number;
  batch_id: number | null;
  channel_code: string;
  order_no: string;
  waybill_no: string | null;
  split_waybill_no: string | null;
  system_no: string;
  user_ref_no: string | null;
  box_no: string | null;
  export_nomination_id: number | null;
  number_segment_id: number | null;
  order_type: Generated<string>;
  clearance_company_code: string | null;
  status: string;
  intercepted: Generated<Flag>;
  released: Generated<Flag>;
  print_count: Generated<number>;
  print_flag: Generated<Flag>;
  /** Address changed after printing: the next label carries the "B" mark (modules/label-b). */
  label_b: Generated<Flag>;
  error_reason: string | null;
  error_at: Time | null;
  abnormal_rule: string | null;
  abnormal_reason: string | null;
  abnormal_at: Time | null;
  recipient_name: string;
  recipient_id_card: string;
  recipient_phone: string;
  recipient_email: string | null;
  recipient_country: Generated<string>;
  recipient_province: string;
  recipient_city: string;
  recipient_district: string;
  recipient_street: string | null;
  recipient_address: string;
  recipient_postcode: string | null;
  sender_name: string | null;
  sender_address: string | null;
  sender_phone: string | null;
  currency: string;
  total_amount: Generated<number>;
  insured_amount: Generated<number>;
  remark: string | null;
  /** CNY decimal: the tax estimated when the order was made or last changed (migration 2026-11-24T0420). */
  tax_estimate: string | null;
  gns_updated: Generated<Flag>;
  push_s: Generated<Flag>;
  push_price: Generated<Flag>;
  whole_set: Generated<Flag>;
  created_by: number | null;
  created_at: Time;
  updated_at: Time;
  received_at: Time | null;
  shipped_at: Time | null;
  /** Gross weight in grams (migration 2026-11-24T1340-bills): priced by rate cards. */
  gross_weight_g: number | null;
  /** The weight a customer or agent declared in a pre-alert (migration 2026-11-27T0100); never charged. */
  declared_weight_g: number | null;
}
export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  line_no: number;
  jan: string | null;
  name: string;
  brand: string | null;
  spec: string | null;
  quantity: number;
  unit_price: number;
  currency: string;
  origin: string | null;
  hazard_code: string | null;
}
export interface TrackingEventsTable {
  id: Generated<number>;
  order_id: number;
  kind: string;
  at: Time;
  location: string | null;
  note: string | null;
  created_by: number | null;
}
export interface NoticesTable {
  id: Generated<number>;
  title_zh: string;
  title_en: string;
  content_zh: string;
  content_en: string;
  must_agree: Generated<Flag>;
  published_at: Time;
  created_by: number | null;
}
export interface NoticeReadsTable {
  notice_id: number;
  user_id: number;
  read_at: Time;
  agreed_at: Time | null;
}

export interface IdCardsTable {
  id: Generated<number>;
  customer_id: number;
  order_id: number | null;
  name: string;
  id_card: string;
  front_file_id: number | null;
  back_file_id: number | null;
  created_by: number | null;
  created_at: Time;
  updated_at: Time;
}
/** Label print jobs (issue 14, migration 2026-11-24T0950). */
export interface PrintJobsTable {
  id: Generated<number>;
  user_id: number;
  printer: string | null;
  /** running | done | failed */
  status: string;
  total: number;
  printed: Generated<number>;
  drawn: Generated<number>;
  /** JSON: [{ orderNo, reason }] in the starter's language. */
  refused: Generated<string>;
  file_id: number | null;
  /** A message key (migration 2026-11-27T0200), translated when read. */
  error: string | null;
  /** JSON: the ids of the orders the job counted, once it has (migration 2026-11-27T0200). */
  printed_ids: string | null;
  created_at: Time;
  updated_at: Time;
}
/** A declarations workbook's commit on the job queue (migration 2026-11-27T0420-order-review-jobs). */
export interface ExportDeclarationRunsTable {
  id: Generated<number>;
  user_id: number;
  customer_id: number | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  /** The checked rows (JSON) in the file store, until the run ended. */
  rows_key: string | null;
  /** A message key, translated when read. */
  error: string | null;
  created_at: Time;
  updated_at: Time;
}
/** Japanese export declarations and their permits (issue 15, migration 2026-11-24T1300). */
export interface ExportDeclarationsTable {
  order_id: number;
  customer_id: number;
  product_name: string;
  /** Whole yen. */
  amount_jpy: number;
  permit_file_id: number | null;
  permit_uploaded_at: Time | null;
  permit_uploaded_by: number | null;
  permit_emailed_at: Time | null;
  /** A message key (`declMailFailed`); text stored before issue 27's queue is shown as it is. */
  permit_email_error: string | null;
  /** The id of a failed mail, quoted to the user and in the log (migration 2026-11-27T0420). */
  permit_email_error_id: string | null;
  updated_by: number | null;
  updated_at: Time;
}
export interface RateLimitsTable {
  key: string;
  window_start: number;
  hits: number;
}

/** Webhook deliveries and signatures already taken (modules/clearance), kept for the signing window. */
export interface ClearanceWebhookSeenTable {
  company_code: string;
  seen_key: string;
  seen_at: string;
}

/** Administration (issue 17): who changed what, and who read what is sensitive. */
export interface AuditLogTable {
  id: Generated<number>;
  at: Time;
  user_id: number | null;
  user_name: string;
  action: string;
  target: Generated<string>;
  detail: Generated<string>;
  ip: Generated<string>;
}
export interface AdminTables {
  audit_log: AuditLogTable;
}

export interface DB
  extends
    AdminTables,
    BillTables,
    ItemTables,
    JdTables,
    JobTables,
    LabelBTables,
    LifeTables,
    MeituanTables,
    OrderReviewTables,
    PickupTables,
    StorageTables,
    TaxTables {
  clearance_webhook_seen: ClearanceWebhookSeenTable;
  users: UsersTable;
  customers: CustomersTable;
  customer_channels: CustomerChannelsTable;
  role_permissions: RolePermissionsTable;
  sessions: SessionsTable;
  session_tokens: SessionTokensTable;
  login_attempts: LoginAttemptsTable;
  login_known_addresses: LoginKnownAddressesTable;
  user_settings: UserSettingsTable;
  print_jobs: PrintJobsTable;
  export_declarations: ExportDeclarationsTable;
  export_declaration_runs: ExportDeclarationRunsTable;
  channels: ChannelsTable;
  clearance_companies: CodedTable;
  order_types: CodedTable;
  currencies: CurrenciesTable;
  number_segments: NumberSegmentsTable;
  waybill_reservations: WaybillReservationsTable;
  export_nominations: ExportNominationsTable;
  files: FilesTable;
  file_blobs: FileBlobsTable;
  export_progress: ExportProgressTable;
  export_renders: ExportRendersTable;
  batches: BatchesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  tracking_events: TrackingEventsTable;
  notices: NoticesTable;
  notice_reads: NoticeReadsTable;
  id_cards: IdCardsTable;
  rate_limits: RateLimitsTable;
  /** SQLite only: the document-number counter (PostgreSQL draws from document_number_seq). */
  document_counters: DocumentCountersTable;
}
export interface DocumentCountersTable {
  name: string;
  value: number;
}
