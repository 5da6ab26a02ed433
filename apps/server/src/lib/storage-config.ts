import path from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { localStorage, type Storage } from './storage.ts';
import { databaseStorage } from './storage-database.ts';
import { s3Storage } from './storage-s3.ts';

/** The file store FILE_STORE names (config.ts decides the default per database). */
export function createStorage(config: Config, db: Database): Storage {
  if (config.fileStore === 's3') return s3Storage(config.s3!);
  if (config.fileStore === 'database') return databaseStorage(db);
  return localStorage(path.join(config.DATA_DIR, 'files'));
}
