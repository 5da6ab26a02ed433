import type { Generated } from 'kysely';

type Time = string;
type Flag = number;

/** Tables of the files module: stored files, their bytes in the database store, renders and their progress. */
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
/** A download asked for without waiting, and where its file went (modules/export-jobs/export-downloads.ts). */
export interface ExportDownloadsTable {
  user_id: number;
  id: string;
  state: string;
  filename: string | null;
  content_type: string | null;
  file_key: string | null;
  /** Why it failed, as the answer's parts (`{ code, key, params, fields, data }`), in no language. */
  error: string | null;
  created_at: Time;
  updated_at: Time;
  /** The builder's last beat while `running` (null: a builder that never beats, from before it); older than the bound: its builder is gone. */
  heartbeat_at: Time | null;
}
/** The bytes of stored files when the file store is the database (lib/storage-database.ts). */
export interface FileBlobsTable {
  key: string;
  data: Uint8Array;
  size: number;
  created_at: Time;
}
export interface FileTables {
  files: FilesTable;
  file_blobs: FileBlobsTable;
  export_progress: ExportProgressTable;
  export_renders: ExportRendersTable;
  export_downloads: ExportDownloadsTable;
}
