import { randomUUID } from 'node:crypto';
import { type ApiLanguage, ErrorCode } from '@console/contract';
import { databaseMessages } from '@console/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isTransientDatabaseError } from '../db/transient-errors.ts';
import { AppError } from '../lib/errors.ts';
import { languageOf, translate } from '../lib/messages.ts';
import { isStorageFull } from '../lib/storage.ts';

type DatabaseErrorClass = 'invalid' | 'unique' | 'conflict';

/**
 * The class of a database error, the same on both engines: PostgreSQL by SQLSTATE,
 * SQLite by its extended result code (node:sqlite's `errcode`). Null: not a database
 * error, or one that is our bug (a 500).
 */
export function classifyDatabaseError(error: unknown): { kind: DatabaseErrorClass; columns: string[] } | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { code?: unknown; errcode?: unknown; severity?: unknown; detail?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const code = e.errcode;
    // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY: "UNIQUE constraint failed: orders.customer_id, orders.order_no".
    if (code === 2067 || code === 1555) {
      const list = /constraint failed: (.+)$/.exec(message)?.[1] ?? '';
      return { kind: 'unique', columns: list.split(',').map((c) => c.trim().split('.').at(-1)!) };
    }
    // _FOREIGNKEY, _CHECK, SQLITE_TOOBIG, SQLITE_MISMATCH: the value, not the code, is wrong.
    if (code === 787 || code === 275 || code === 18 || code === 20) return { kind: 'invalid', columns: [] };
    // SQLITE_BUSY, SQLITE_LOCKED and their extended codes: another writer held on.
    if ((code & 0xff) === 5 || (code & 0xff) === 6) return { kind: 'conflict', columns: [] };
    return null;
  }
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && e.severity !== undefined) {
    const code = e.code;
    if (code === '23505') {
      // detail: "Key (customer_id, order_no)=(1, A-1) already exists."
      const list = typeof e.detail === 'string' ? (/^Key \(([^)]*)\)=/.exec(e.detail)?.[1] ?? '') : '';
      return { kind: 'unique', columns: list.split(',').map((c) => c.trim()) };
    }
    // Class 22 (data exception: out of range, invalid text, NUL), foreign key and check
    // violations, 54000 (a value too large for an index).
    if (code.startsWith('22') || code === '23503' || code === '23514' || code === '54000')
      return { kind: 'invalid', columns: [] };
    // Serialization failure, deadlock, lock not available: the same request may succeed again.
    if (code === '40001' || code === '40P01' || code === '55P03') return { kind: 'conflict', columns: [] };
  }
  return null;
}

/**
 * Seconds a client is told to wait after a 503 `databaseUnavailable`: a restart or a failover
 * gives connections back within seconds, and the pool reconnects by itself (issue 38).
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database went away mid-request or cannot be reached (a restart, a failover, a full
 * connection table: `isTransientDatabaseError`): the same request may succeed a little later,
 * so a 503 with a reason key and Retry-After, never a 500 (issue 38, build item 3). A
 * serialization failure or a busy SQLite stays the 409 above: another request's write, not an outage.
 */
function databaseUnavailable(cause: unknown): AppError {
  return new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'databaseUnavailable', null, undefined, undefined, cause);
}

/**
 * A statement stopped by PostgreSQL's `statement_timeout` (DATABASE_STATEMENT_TIMEOUT_SECONDS) or
 * cancelled (57014 query_canceled): the database is up, the request asked too much of it. A 503
 * with its own reason (not a 500, issue 38), without Retry-After: the same request would likely
 * run as long again, so the words say to narrow it. Not transient for jobs for the same reason.
 */
function databaseTimeout(cause: unknown): AppError {
  return new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'databaseTimeout', null, undefined, undefined, cause);
}

const isQueryCanceled = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '57014';

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A database error as the answer the user should get, or null for a 500: invalid input
 * and out-of-range values 400, a unique violation 422 on the field (tenant keys such
 * as `customer_id` are not the user's field), a serialization failure or deadlock 409.
 */
export function appErrorOfDatabase(error: unknown): AppError | null {
  const c = classifyDatabaseError(error);
  if (!c) {
    if (isQueryCanceled(error)) return databaseTimeout(error);
    return isTransientDatabaseError(error) ? databaseUnavailable(error) : null;
  }
  if (c.kind === 'invalid') return AppError.badRequest('dbInvalidInput');
  if (c.kind === 'conflict') return AppError.conflict('dbConflict');
  const columns = c.columns.filter((col) => col && col !== 'customer_id');
  const column = columns.at(-1) ?? c.columns.at(-1) ?? '';
  const key = `dbDuplicate_${column}` in databaseMessages ? `dbDuplicate_${column}` : 'dbDuplicate';
  return AppError.validation({ [column ? camel(column) : '_']: [key] });
}

/**
 * A database error in words for the user, without a final stop to sit inside a sentence
 * (a failed batch's reason), or null when it is not one of the classes above: never the
 * database's own text, which names constraints.
 */
export function databaseErrorText(lang: ApiLanguage, error: unknown): string | null {
  const e = appErrorOfDatabase(error);
  if (!e) return null;
  const first = e.fields ? Object.values(e.fields)[0]?.[0] : undefined;
  return translate(lang, first ?? e.key, e.params).replace(/[.。]$/, '');
}

/**
 * An AppError as the envelope the client reads: its key's words, and its fields' messages in the
 * caller's language. Also what a v1 batch answers for each order it refused.
 */
export function appErrorBody(lang: ApiLanguage, error: AppError) {
  const data = error.fields
    ? Object.fromEntries(
        Object.entries(error.fields).map(([f, keys]) => [f, keys.map((k) => translate(lang, k, error.params))]),
      )
    : error.data;
  return { code: error.code, message: translate(lang, error.key, error.params), key: error.key, data };
}

/**
 * A failure as the AppError the client is answered with, for an answer given later (an async
 * download's, kept for `export/file`): the store's and the database's in their words, anything
 * else a 500 `internal` whose errorId is also in the log line with the cause.
 */
export function answerableError(raw: unknown, log: { error(obj: object, msg: string): void }): AppError {
  if (raw instanceof AppError) {
    if (raw.code >= 500) log.error({ err: raw }, 'app error');
    return raw;
  }
  if (isStorageFull(raw)) return AppError.storageFull(raw);
  const fromDatabase = appErrorOfDatabase(raw);
  if (fromDatabase) return fromDatabase;
  const errorId = randomUUID();
  log.error({ err: raw, errorId }, 'unhandled error');
  return new AppError(ErrorCode.INTERNAL, 'internal', { errorId });
}

/**
 * Every failure leaves as the envelope with HTTP status = code. Only AppError
 * texts reach the client; anything else is a 500 whose errorId is also in the
 * log line with the stack (never the stack, SQL or a path in the answer).
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((raw: FastifyError | AppError | Error, request, reply) => {
    const lang = languageOf(request.headers['accept-language']);
    // A full disk (files or database) is a 507 the user can read, its cause in the log (lib/storage.ts).
    const full = !(raw instanceof AppError) && isStorageFull(raw) ? AppError.storageFull(raw) : null;
    const fromDatabase = raw instanceof AppError || full ? null : appErrorOfDatabase(raw);
    if (fromDatabase) request.log.warn({ err: raw }, 'database refused the request');
    const error = full ?? fromDatabase ?? raw;
    if (error instanceof AppError) {
      if (error.code >= 500) request.log.error({ err: error }, 'app error');
      if (error.key === 'databaseUnavailable') reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply.status(error.code).send(appErrorBody(lang, error));
    }
    const fe = error as FastifyError;
    const known: Record<string, [number, string]> = {
      FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'unsupportedMediaType'],
      FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'payloadTooLarge'],
      FST_REQ_FILE_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'payloadTooLarge'],
      FST_ERR_CTP_EMPTY_JSON_BODY: [ErrorCode.BAD_REQUEST, 'badJson'],
      FST_ERR_CTP_INVALID_JSON_BODY: [ErrorCode.BAD_REQUEST, 'badJson'],
      FST_INVALID_MULTIPART_CONTENT_TYPE: [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'unsupportedMediaType'],
    };
    const hit = fe.code ? known[fe.code] : undefined;
    if (hit) {
      return reply.status(hit[0]).send({ code: hit[0], message: translate(lang, hit[1]), key: hit[1], data: null });
    }
    if (error instanceof SyntaxError && fe.statusCode === 400) {
      return reply.status(400).send({ code: 400, message: translate(lang, 'badJson'), key: 'badJson', data: null });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.status(fe.statusCode).send({
        code: fe.statusCode,
        message: translate(lang, 'badRequestGeneric'),
        key: 'badRequestGeneric',
        data: null,
      });
    }
    const errorId = randomUUID();
    request.log.error({ err: error, errorId }, 'unhandled error');
    return reply
      .status(500)
      .send({ code: 500, message: translate(lang, 'internal'), key: 'internal', data: { errorId } });
  });

  app.setNotFoundHandler((request, reply) => {
    const lang = languageOf(request.headers['accept-language']);
    reply.status(404).send({ code: 404, message: translate(lang, 'notFound'), key: 'notFound', data: null });
  });
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (FST_ERR_BAD_URL: a raw bad
 * percent-encoding such as `/api/v1/orders/%E4`) never reaches a route or the error handler, and
 * was answered with the framework's own body. It gets the envelope, worded in the caller's language.
 */
export function badUrlAnswer(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const lang = languageOf(request.headers['accept-language']);
  const [code, key] =
    error.code === 'FST_ERR_BAD_URL' ? [400, 'badUrl'] : [error.statusCode ?? 400, 'badRequestGeneric'];
  request.log.info({ url: request.raw.url, err: error.code }, 'request refused by the router');
  return reply.status(code).send({ code, message: translate(lang, key), key, data: null });
}
