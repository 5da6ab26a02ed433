/**
 * Whether a database error is transient: the same work may succeed if it runs again a little
 * later, because the failure was the connection's or the moment's, not the data's. One rule for
 * the job queue (retry with backoff inside the job's lease instead of failing the job for good)
 * and the HTTP error handler (503 with Retry-After instead of a 500).
 *
 * - PostgreSQL SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shut down,
 *   crashed or is starting: a restart or a failover), 53300 (too many connections), 40001
 *   (serialization failure) and 40P01 (deadlock: PostgreSQL rolled one side back).
 * - The driver's and the socket's own errors when the server went away mid-query or cannot be
 *   reached: ECONNRESET, ECONNREFUSED, EPIPE, ETIMEDOUT, EHOSTUNREACH, ENOTFOUND (a virtual
 *   address moving), and pg's "Connection terminated" / pool "timeout exceeded when trying to
 *   connect" messages, which carry no code.
 * - SQLite: SQLITE_BUSY (5) and SQLITE_LOCKED (6) with their extended codes.
 *
 * A constraint violation, a data exception or our own bug is never transient: running it again
 * gives the same answer.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown; cause?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const primary = e.errcode & 0xff;
    return primary === 5 || primary === 6;
  }
  if (typeof e.code === 'string') {
    const code = e.code;
    if (/^[0-9A-Z]{5}$/.test(code)) {
      if (code.startsWith('08')) return true;
      if (code === '57P01' || code === '57P02' || code === '57P03') return true;
      if (code === '53300' || code === '40001' || code === '40P01') return true;
    }
    if (SOCKET_CODES.has(code)) return true;
  }
  const message = typeof e.message === 'string' ? e.message : '';
  if (DRIVER_MESSAGES.some((m) => message.includes(m))) return true;
  // AggregateError (a connect that tried several addresses) and wrapped causes.
  if ('errors' in e && Array.isArray((e as { errors: unknown[] }).errors))
    return (e as { errors: unknown[] }).errors.some(isTransientDatabaseError);
  return e.cause !== undefined && e.cause !== error ? isTransientDatabaseError(e.cause) : false;
}

const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** pg and pg-pool's errors without a code when the server or the pool could not serve. */
const DRIVER_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];
