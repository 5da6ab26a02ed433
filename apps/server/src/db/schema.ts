import type { Generated } from 'kysely';
import type { AccountTables } from './schema-accounts.ts';
import type { ApiKeyTables } from './schema-api-keys.ts';
import type { WebhookTables } from './schema-webhooks.ts';
import type { BillTables } from './schema-bills.ts';
import type { FileTables } from './schema-files.ts';
import type { ItemTables } from './schema-items.ts';
import type { LabelBTables } from './schema-label-b.ts';
import type { LifeTables } from './schema-life.ts';
import type { OrderReviewTables } from './schema-order-reviews.ts';
import type { JdTables } from './schema-jd.ts';
import type { JobTables } from './schema-jobs.ts';
import type { MeituanTables } from './schema-meituan.ts';
import type { OrderTables } from './schema-orders.ts';
import type { PickupTables } from './schema-pickups.ts';
import type { StorageTables } from './schema-storage.ts';
import type { TaxTables } from './schema-tax.ts';

/**
 * Table types for Kysely, matching the migrations. Times are ISO-8601 UTC strings
 * on both engines; flags are 0/1; money is integer minor units.
 */
type Time = string;
type Flag = number;

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
export interface NoticesTable {
  id: Generated<number>;
  title_zh: string;
  title_en: string;
  content_zh: string;
  content_en: string;
  must_agree: Generated<Flag>;
  published_at: Time;
  created_by: number | null;
  /** A notice for this user only (an endpoint disabled); null: for everyone. */
  user_id: number | null;
}
export interface NoticeReadsTable {
  notice_id: number;
  user_id: number;
  read_at: Time;
  agreed_at: Time | null;
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
  /** The customer whose data the row is about (issue 36 #6), null when none. */
  customer_id: number | null;
}
export interface AdminTables {
  audit_log: AuditLogTable;
}

export interface DB
  extends
    AccountTables,
    AdminTables,
    ApiKeyTables,
    BillTables,
    FileTables,
    ItemTables,
    JdTables,
    JobTables,
    LabelBTables,
    LifeTables,
    MeituanTables,
    OrderReviewTables,
    OrderTables,
    PickupTables,
    StorageTables,
    TaxTables,
    WebhookTables {
  clearance_webhook_seen: ClearanceWebhookSeenTable;
  print_jobs: PrintJobsTable;
  export_declarations: ExportDeclarationsTable;
  export_declaration_runs: ExportDeclarationRunsTable;
  channels: ChannelsTable;
  clearance_companies: CodedTable;
  order_types: CodedTable;
  currencies: CurrenciesTable;
  export_nominations: ExportNominationsTable;
  notices: NoticesTable;
  notice_reads: NoticeReadsTable;
  rate_limits: RateLimitsTable;
  /** SQLite only: the document-number counter (PostgreSQL draws from document_number_seq). */
  document_counters: DocumentCountersTable;
  /** PostgreSQL with a replica: each user's last write position in the WAL (db/read-replica.ts). */
  write_positions: WritePositionsTable;
}
export interface WritePositionsTable {
  user_id: number;
  /** `16/B374D848`, as `pg_current_wal_insert_lsn()` prints it. */
  wal_lsn: string;
}
export interface DocumentCountersTable {
  name: string;
  value: number;
}
