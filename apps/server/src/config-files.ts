import { z } from 'zod';
import { bool, ConfigError } from './config-values.ts';

/**
 * Files' settings: where their bytes live (local, database, S3), how long made files are kept,
 * each customer's quota (lib/files.ts, lib/storage*.ts). A part of the one configuration
 * config.ts parses.
 */
export const fileSettings = {
  /** An unconfirmed batch preview (its parsed orders, stored in DATA_DIR) is dropped this long after it was made. */
  PREVIEW_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 60),
  /** Files made for a user (generated downloads, refused-upload workbooks) are removed this many days after they were made. */
  FILE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** How often the retention cleanup runs (minutes). */
  FILE_SWEEP_MINUTES: z.coerce.number().positive().default(60),
  /**
   * The bytes one customer's files may take in the file store (its uploads, ID card and item
   * images, files made for it); an upload past it is refused with a 507 giving the figures. 0: no
   * quota. Generous by default: a shared store (FILE_STORE=database fills PostgreSQL's disk) is
   * not one tenant's to fill (lib/files.quota.ts).
   */
  CUSTOMER_FILE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 1024 * 1024 * 1024),
  /**
   * Where files' bytes live (lib/storage*.ts): `local` (DATA_DIR/files), `database` (the
   * file_blobs table) or `s3`. Unset: local on SQLite, database on PostgreSQL, so several
   * instances on one PostgreSQL share their files with no extra setting.
   */
  FILE_STORE: z.enum(['local', 'database', 's3']).optional(),
  /** FILE_STORE=s3: the bucket (required), an optional key prefix, and where it is. */
  S3_BUCKET: z.string().optional(),
  S3_PREFIX: z
    .string()
    .default('')
    .transform((v) => v.replace(/^\/+|\/+$/g, '')),
  S3_REGION: z.string().default('us-east-1'),
  /** An S3-compatible server's address (MinIO, Ceph, …); unset: AWS. */
  S3_ENDPOINT: z.url().optional(),
  /** Path-style addressing (`host/bucket/key`), which most S3-compatible servers want. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Unset: the AWS SDK's own chain (environment of the SDK, instance role). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
};

type FileSettings = z.output<z.ZodObject<typeof fileSettings>>;

export type FileStoreKind = 'local' | 'database' | 's3';

export interface S3Settings {
  bucket: string;
  prefix: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The file store the settings choose: unset, local on SQLite and the database on PostgreSQL. */
export function fileStoreOf(
  s: FileSettings,
  dialect: 'sqlite' | 'postgres',
): { fileStore: FileStoreKind; s3: S3Settings | null } {
  const fileStore = s.FILE_STORE ?? (dialect === 'postgres' ? 'database' : 'local');
  const problems: string[] = [];
  if (fileStore === 's3' && !s.S3_BUCKET) problems.push('  S3_BUCKET: required with FILE_STORE=s3');
  if (!s.S3_ACCESS_KEY_ID !== !s.S3_SECRET_ACCESS_KEY)
    problems.push('  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const s3 =
    fileStore === 's3'
      ? {
          bucket: s.S3_BUCKET!,
          prefix: s.S3_PREFIX,
          region: s.S3_REGION,
          endpoint: s.S3_ENDPOINT,
          forcePathStyle: s.S3_FORCE_PATH_STYLE,
          credentials:
            s.S3_ACCESS_KEY_ID && s.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: s.S3_ACCESS_KEY_ID, secretAccessKey: s.S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : null;
  return { fileStore, s3 };
}
