import { z } from 'zod';
import { whole } from './fields.ts';
import { pattern } from './messages.ts';

/** Every JSON answer is this envelope; the HTTP status equals `code`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), message: z.string(), data });

/**
 * An error answer: the envelope plus `key`, the message's stable key (`slotFull`,
 * `validationFailed`, `internal` …). `message` is `key` translated for the caller and may change
 * wording; `key` does not, so clients, tests and integrators match on it (docs/api.md).
 */
export const errorEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), message: z.string(), key: z.string(), data });

/**
 * Codes the console reacts to (spec §8). HTTP status equals the code.
 * 428 is ours: unread or unagreed notices block ordering (spec §5).
 */
export const ErrorCode = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION: 422,
  NOTICES_PENDING: 428,
  TOO_MANY_REQUESTS: 429,
  SESSION_ENDED: 430,
  INTERNAL: 500,
  /** A part the call needs (the file store) cannot be reached now: nothing was saved; try again. */
  SERVICE_UNAVAILABLE: 503,
  /** The server's disk (files or database) is full: nothing was saved; try later. */
  INSUFFICIENT_STORAGE: 507,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The message of a 400 that the console keeps silent (spec §8). */
export const NO_DATA_MESSAGE = 'no data';

/** 422 data: field path → messages. */
export const fieldErrors = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrors>;

export const internalErrorData = z.object({ errorId: z.string() });

/** Paging payload (spec §3): offset, limit, order. Filters are added per call. */
export const paging = z.object({
  offset: whole(0, 10_000_000).default(0),
  limit: whole(1, 500).default(20),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type Paging = z.output<typeof paging>;

export const paged = <T extends z.ZodType>(item: T) => z.object({ total: z.number().int(), list: z.array(item) });

/** The AES envelope body and header (wire format in docs/api.md). */
export const AES_HEADER = 'aes';
export const AES_INFO = 'console-aes-v1';
export const aesBody = z.object({ data: z.string().min(1).max(50_000_000), iv: z.string().min(1).max(64) }).strict();

/** Times travel as ISO-8601 UTC strings; the console shows them at UTC+8. */
export const isoTime = z.string();
/** Money travels as a decimal string with its currency beside it, never as a float. */
export const money = z.string().regex(pattern(/^-?\d+(\.\d{1,4})?$/, 'money'));
