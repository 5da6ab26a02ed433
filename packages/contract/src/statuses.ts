import { callsBeforePasswordChange } from './auth.ts';
import type { CallDef, FileKind } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { ACCEPTED, answersAsync } from './export-jobs.ts';

/**
 * What every call can answer whatever its handler does, because the server's one wrapper
 * (register-call.ts and the error handler) answers it: an unreadable body or a value the database
 * refuses (400), a body past the limit (413), a body that is not JSON or multipart (415), a request
 * the schema refuses (422), a concurrent write or a stale version (409), our bug (500), the file
 * store out of reach (503: every call may read or write it, if only through a job it waits on), a
 * full disk (507).
 */
const EVERY_CALL: readonly ErrorCode[] = [
  ErrorCode.BAD_REQUEST,
  ErrorCode.CONFLICT,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  ErrorCode.VALIDATION,
  ErrorCode.INTERNAL,
  ErrorCode.SERVICE_UNAVAILABLE,
  ErrorCode.INSUFFICIENT_STORAGE,
];

/**
 * Every status a call can answer: what every call answers, what its definition implies (a signed-in
 * call 401, 430 and 429 past its tenant's bound on renders; 403 when it needs a permission, or when an account that must change its
 * password may not make it; 202 for a signed-in download asked for without waiting) and what its own rules answer (`answers`). The OpenAPI document
 * declares exactly these and the server's tests refuse any other (test/harness.ts).
 */
export function declaredStatuses(call: CallDef): number[] {
  const out = new Set<number>([ErrorCode.OK, ...EVERY_CALL, ...call.answers]);
  if (call.auth) {
    // A signed-in call may build a file, directly or through a job it waits on: past the
    // tenant's bound on renders asked at once it is refused (RENDERS_QUEUED_PER_TENANT).
    out.add(ErrorCode.TOO_MANY_REQUESTS);
    out.add(ErrorCode.UNAUTHORIZED);
    out.add(ErrorCode.SESSION_ENDED);
    if (call.permission || !callsBeforePasswordChange.includes(call.path)) out.add(ErrorCode.FORBIDDEN);
  }
  // A download asked for with `Prefer: respond-async` is accepted at once (export-jobs.ts).
  if (answersAsync(call)) out.add(ACCEPTED);
  return [...out].sort((a, b) => a - b);
}

/** The Content-Type of each kind of file a blob call answers. */
export const FILE_TYPES: Record<FileKind, readonly string[]> = {
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  pdf: ['application/pdf'],
  image: ['image/jpeg', 'image/png'],
  // A stored file as it was saved: a workbook, a PDF or an image.
  stored: [
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/pdf',
    'image/jpeg',
    'image/png',
  ],
};
