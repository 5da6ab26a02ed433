import type { Readable } from 'node:stream';
import type { ApiLanguage } from '@console/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProgressTracker } from '../lib/export-progress.ts';
import type { Actor, Scope } from '../lib/scope.ts';
import type { StaffWrite } from '../lib/staff-writes.ts';

/** An uploaded file of a multipart call, held in memory (size-limited by config). */
export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** A blob answer: sent as the file with a UTF-8 Content-Disposition filename. */
export class Download {
  readonly filename: string;
  readonly contentType: string;
  readonly body: Buffer | Readable;
  constructor(filename: string, contentType: string, body: Buffer | Readable) {
    this.filename = filename;
    this.contentType = contentType;
    this.body = body;
  }
}

export interface CallContext {
  readonly lang: ApiLanguage;
  /** The authenticated caller; only absent on calls with `auth: false`. */
  readonly actor: Actor;
  /** The caller's tenant scope, loaded once per call. */
  scope(): Promise<Scope>;
  /** The raw bearer token as sent (refresh needs the possibly expired one). */
  readonly bearer: string | null;
  readonly files: readonly UploadedFile[];
  readonly ip: string;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** The record of this call's write when staff or an agent makes it on a customer's data (lib/staff-writes.ts). */
  readonly staff: StaffWrite;
  /** The progress of the caller's download named `progressId` (none when the console named none). */
  trackExport(progressId: string | undefined): ProgressTracker | undefined;
}

/**
 * A JSON answer already checked against the call's response schema and serialised (see
 * http/response-cache.ts): sent as the `data` of the envelope without parsing it again.
 */
export class Prepared {
  readonly json: Buffer;
  constructor(json: Buffer) {
    this.json = json;
  }
}

/**
 * Downloads asked for with `Prefer: respond-async` (issue 38 item 6): built on after a 202, the
 * file kept in the shared store for `export/file` (modules/export-jobs/export-downloads.ts).
 */
export interface AsyncDownloads {
  /** Records the download and starts `build`, resolving before it ends; `tracker`'s done or failed is written once the result is kept. */
  start(userId: number, id: string, tracker: ProgressTracker, build: () => Promise<Download>): Promise<void>;
}
