import {
  AES_HEADER,
  aesBody,
  type CallDef,
  type CallResponse,
  ErrorCode,
  type ParsedRequest,
  contractErrorMap,
  auth as authCalls,
  exportJobs,
} from '@console/contract';
import { randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { audit } from '../lib/audit.ts';
import { aesDecrypt, aesEncrypt, aesKey } from '../lib/crypto.ts';
import { AppError } from '../lib/errors.ts';
import { asTenant, tenantOf } from '../lib/fair-turns.ts';
import { languageOf, translate } from '../lib/messages.ts';
import type { ExportProgressStore, ProgressTracker } from '../lib/export-progress.ts';
import { type Actor, type Scope, scopeOf } from '../lib/scope.ts';
import { StaffWrite } from '../lib/staff-writes.ts';
import { asCallOf, type Database } from '../db/database.ts';
import { type AsyncDownloads, type CallContext, Download, Prepared, type UploadedFile } from './call-context.ts';
import { answerableError } from './error-handler.ts';
import { contentDisposition } from './content-disposition.ts';
import { responseCache } from './response-cache.ts';

export type Handler<C extends CallDef> = (
  input: ParsedRequest<C>,
  ctx: CallContext,
) => Promise<CallResponse<C> | Download | Prepared> | CallResponse<C> | Download | Prepared;

/** Resolves a bearer token to the caller, or throws 401/430 (the auth module provides it). */
export type Authenticate = (token: string | null, ip: string) => Promise<Actor>;

export interface Registrar {
  call<C extends CallDef>(def: C, handler: Handler<C>): void;
  /** A cache of serialised answers of a read call, valid while the data is unchanged (response-cache.ts). */
  responseCache<C extends CallDef>(def: C): ReturnType<typeof responseCache<C>>;
}

const CLOSE_BRACE = Buffer.from('}');
/** Refusals in the caller's language, in the contract's words (never zod's own text). */
const zodLocales = { en: contractErrorMap('en'), 'zh-CN': contractErrorMap('zh-CN') };

export function bearerOf(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h || !/^bearer\s+/i.test(h)) return null;
  const token = h.replace(/^bearer\s+/i, '').trim();
  return token.length > 0 && token.length <= 256 ? token : null;
}

/** 422 data from zod issues: dotted field path → messages. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/**
 * Wires one contract call to `POST /api/<path>`: authentication, permission,
 * AES envelope, validation (422), the handler, and the `{code, message, data}`
 * envelope (or a file for blobs). Routes files only supply handlers.
 */
export function createRegistrar(
  app: FastifyInstance,
  db: Database,
  authenticate: Authenticate,
  opts: {
    readCacheEntries: number;
    uploadLimitBytes: number;
    exportProgress: ExportProgressStore;
    /** Where downloads asked for without waiting go; none (a benchmark's registrar): every download waits. */
    downloads?: AsyncDownloads;
  },
): Registrar {
  return {
    responseCache: (def) => responseCache(db, def, opts.readCacheEntries),
    call(def, handler) {
      const url = `/api/${def.path}`;
      app.post(url, async (request: FastifyRequest, reply: FastifyReply) => {
        const lang = languageOf(request.headers['accept-language']);
        const bearer = bearerOf(request);
        const actor = def.auth ? await authenticate(bearer, request.ip) : (undefined as unknown as Actor);
        if (def.auth && actor.mustChangePassword && !authCalls.callsBeforePasswordChange.includes(def.path))
          throw AppError.forbidden('mustChangePassword');
        if (def.auth && def.permission && !actor.permissions.has(def.permission)) throw AppError.forbidden();

        // No body at all is an empty call; an explicit JSON null is not.
        let body: unknown = request.body === undefined ? {} : request.body;
        let files: UploadedFile[] = [];
        if (def.kind === 'multipart') {
          ({ fields: body, files } = await readMultipart(request, opts.uploadLimitBytes));
        }
        const encrypted = def.aes;
        // Derived once per call: the request is opened and the answer sealed with the same key.
        let key: KeyObject | undefined;
        if (encrypted) {
          if (request.headers[AES_HEADER] !== '1') throw AppError.badRequest('aesRequired');
          const env = aesBody.safeParse(body);
          if (!env.success) throw AppError.badRequest('aesRequired');
          try {
            key = aesKey(bearer!);
            body = JSON.parse(aesDecrypt(key, env.data.data, env.data.iv));
          } catch {
            throw AppError.badRequest('aesInvalid');
          }
        }

        const parsed = def.request.safeParse(body, { error: zodLocales[lang] });
        if (!parsed.success) throw AppError.validation(fieldErrorsOf(parsed.error));

        // A download asked for without waiting (issue 38 item 6): answered 202 with its id below,
        // its progress tracked under that id whether or not the call names one.
        const asyncId =
          opts.downloads && exportJobs.answersAsync(def) && wantsAsync(request.headers.prefer)
            ? downloadIdOf(parsed.data)
            : null;
        const asyncTracker = asyncId ? opts.exportProgress.track(actor.userId, asyncId)! : undefined;
        let scope: Promise<Scope> | undefined;
        const staff = new StaffWrite(def.auth ? def.path : '', parsed.data, def.auth ? actor : undefined, request.ip);
        const ctx: CallContext = {
          staff,
          lang,
          actor,
          bearer,
          files,
          ip: request.ip,
          request,
          reply,
          scope: () => (scope ??= scopeOf(db, actor)),
          trackExport: (progressId) =>
            asyncTracker ? finalHeld(asyncTracker) : opts.exportProgress.track(actor.userId, progressId),
        };
        // The files this call builds and the sheets it reads wait in the shared pools as its
        // customer's (lib/fair-turns.ts); staff and agents wait as themselves.
        const tenant = def.auth ? tenantOf(actor) : '';
        // With a replica (DATABASE_READ_URL), the call's list reads may go there, and what it
        // writes is noted after it so its user's next reads, on any instance, see it (db/read-replica.ts).
        const work = () =>
          asCallOf(db, def.auth ? actor.userId : null, async () => {
            const result = await asTenant(tenant, () => handler(parsed.data as ParsedRequest<typeof def>, ctx));
            // Staff and agents changing a customer's data leave a row (lib/staff-writes.ts): the service's,
            // with before and after, in its transaction; else this one, once the call succeeded.
            const fallback = staff.fallback();
            if (fallback) await audit(db, { actor, ip: request.ip }, fallback);
            return result;
          });
        if (asyncId && asyncTracker && opts.downloads) {
          await opts.downloads.start(actor.userId, asyncId, asyncTracker, async () => {
            try {
              const result = await work();
              if (!(result instanceof Download)) throw new Error(`${def.path} answered no file`);
              return result;
            } catch (raw) {
              // What the call would have answered, kept for export/file (a 500's cause only in the log).
              throw answerableError(raw, request.log);
            }
          });
          // The first poll, on any instance, reads "waiting" rather than "unknown".
          await asyncTracker.flushed();
          const accepted: exportJobs.DownloadAccepted = { id: asyncId };
          return reply
            .status(exportJobs.ACCEPTED)
            .header('preference-applied', exportJobs.RESPOND_ASYNC)
            .header('cache-control', 'no-store')
            .send({ code: exportJobs.ACCEPTED, message: translate(lang, 'ok'), data: accepted });
        }
        const result = await work();

        if (result instanceof Download) {
          return reply
            .status(200)
            .header('content-type', result.contentType)
            .header('content-disposition', contentDisposition(result.filename))
            .header('cache-control', 'no-store')
            .send(result.body);
        }
        const message = translate(lang, 'ok');
        if (result instanceof Prepared && !encrypted) {
          return reply
            .status(200)
            .type('application/json; charset=utf-8')
            .send(
              Buffer.concat([
                Buffer.from(`{"code":${ErrorCode.OK},"message":${JSON.stringify(message)},"data":`),
                result.json,
                CLOSE_BRACE,
              ]),
            );
        }
        if (encrypted) {
          // A prepared answer is already checked and serialised: its bytes are sealed as they are.
          // Serialising through the schema drops anything the contract does not name.
          const plain = result instanceof Prepared ? result.json : JSON.stringify(def.response.parse(result ?? null));
          const sealed = aesEncrypt(key!, plain);
          return reply
            .status(200)
            .header('AES', '1')
            .send({ code: ErrorCode.OK, message, data: sealed.data, iv: sealed.iv });
        }
        const data = def.response.parse(result ?? null);
        return reply.status(200).send({ code: ErrorCode.OK, message, data });
      });
    },
  };
}

/** `Prefer: respond-async` (RFC 7240), alone or among other preferences. */
function wantsAsync(prefer: string | string[] | undefined): boolean {
  const all = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return all.split(',').some((p) => p.split(';')[0]!.trim().toLowerCase() === exportJobs.RESPOND_ASYNC);
}

/** The download's id: the progressId the call names (the console's bar already follows it), else a new one. */
function downloadIdOf(parsed: unknown): string {
  const named = (parsed as { progressId?: unknown } | null)?.progressId;
  return typeof named === 'string' ? named : `dl-${randomBytes(16).toString('hex')}`;
}

/**
 * The tracker a handler gets for an async download: its rows and total pass through, but "done"
 * and "failed" wait for the file (or the failure) to be kept, so a console that reads "done"
 * finds the file whichever instance it asks.
 */
function finalHeld(tracker: ProgressTracker): ProgressTracker {
  return {
    ref: tracker.ref,
    writing: () => tracker.writing(),
    total: (n) => tracker.total(n),
    rows: (n) => tracker.rows(n),
    done: () => {},
    failed: () => {},
    flushed: () => tracker.flushed(),
  };
}

/**
 * The form's file part: named `file` in the contract. A part is taken for a file when it has a file
 * name, is sent as bytes (busboy's own rule: `application/octet-stream`) or is named `file`, so a
 * `file` part that lost its file name is refused as one rather than read as a text field and left
 * to each call to find its file missing in words of its own.
 */
const isPartAFile = (field: string | undefined, contentType: string | undefined, filename: string | undefined) =>
  filename !== undefined || contentType === 'application/octet-stream' || field === 'file';

/**
 * The fields and the one file of an upload. Every malformed upload gets the same answer on every
 * upload call, in the declared 422 shape (`data`: field → messages) where it is the file's: a second
 * file part `{ file: [onlyOneFile] }`, a file part without a file name `{ file: [fileWithoutName] }`,
 * a file past the limit `{ file: [fileTooLarge] }`; a body that is not multipart 415; a truncated
 * body 400 `badMultipart`.
 */
async function readMultipart(
  request: FastifyRequest,
  uploadLimitBytes: number,
): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  if (!request.isMultipart()) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'unsupportedMediaType');
  const fields: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts({ isPartAFile })) {
      if (part.type === 'file') {
        // Read whole (within the limit) before any refusal, so the parser is never left mid-part.
        const data = await part.toBuffer();
        if (!part.filename) throw AppError.field('file', 'fileWithoutName');
        files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
        if (files.length > 1) throw AppError.field('file', 'onlyOneFile');
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (e) {
    // Limits and our own refusals have codes the error handler knows; busboy's errors for a
    // truncated body or a missing boundary have none, and are the client's, not a 500.
    // A file past the limit is the user's to fix: say which field and the limit, in their language.
    const code = (e as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw AppError.fileTooLarge(uploadLimitBytes);
    // busboy stops at the second file part (the limit of one): the same answer as our own check.
    if (code === 'FST_FILES_LIMIT') throw AppError.field('file', 'onlyOneFile');
    if (e instanceof AppError || code !== undefined) throw e;
    throw AppError.badRequest('badMultipart');
  }
  return { fields, files };
}
