import { z } from 'zod';
import type { ErrorCode } from './envelope.ts';
import type { RouteName } from './routes.ts';

/** How the body travels: JSON, a file download (blob), or a multipart upload. */
export type CallKind = 'json' | 'blob' | 'multipart';

/** What a blob call's file is; its Content-Type is `FILE_TYPES[kind]` (statuses.ts). */
export type FileKind = 'xlsx' | 'pdf' | 'image' | 'stored';

/**
 * One API call. The server registers `POST /api/<path>` from it, validates the
 * request and serialises `data` with these schemas; the web client is typed from it;
 * the OpenAPI document and the generated hostile-input tests are built from the list.
 */
export interface CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  /** Path under /api, without a leading slash, exactly as the spec names it. */
  readonly path: string;
  readonly summary: string;
  readonly request: Req;
  /** Schema of `data` in the success envelope (ignored for blobs). */
  readonly response: Res;
  /** false only for login, refresh and public calls. */
  readonly auth: boolean;
  /** Body and success `data` travel in the AES-256-GCM envelope. */
  readonly aes: boolean;
  /** Route name the caller must hold (permissions are route names). */
  readonly permission?: RouteName;
  /** Client timeout in ms; 0 = none (long creations and downloads). */
  readonly timeout: number;
  readonly kind: CallKind;
  /**
   * Statuses this call's own rules answer (404 a record gone or not the caller's, 428 notices
   * pending, 429 throttled), beyond those every call of its kind answers: `declaredStatuses`
   * (statuses.ts) adds those, the OpenAPI document declares the sum and the server's tests
   * refuse an answer outside it.
   */
  readonly answers: readonly ErrorCode[];
  /** What a blob answers (spreadsheets unless said). */
  readonly file?: FileKind;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export function defineCall<Req extends z.ZodType, Res extends z.ZodType>(def: {
  path: string;
  summary: string;
  request: Req;
  response: Res;
  auth?: boolean;
  aes?: boolean;
  permission?: RouteName;
  timeout?: number;
  kind?: CallKind;
  answers?: readonly ErrorCode[];
  file?: FileKind;
}): CallDef<Req, Res> {
  return {
    auth: true,
    aes: false,
    answers: [],
    file: def.kind === 'blob' ? 'xlsx' : undefined,
    // Spec §7: downloads run without a timeout, whatever their size.
    timeout: def.kind === 'blob' ? 0 : DEFAULT_TIMEOUT_MS,
    kind: 'json',
    ...def,
  };
}

export type CallRequest<C> = C extends CallDef<infer Req, z.ZodType> ? z.input<Req> : never;
/** A request as the server's handler receives it: parsed, defaults applied. */
export type CallParsed<C> = C extends CallDef<infer Req, z.ZodType> ? z.output<Req> : never;
export type CallResponse<C> = C extends CallDef<z.ZodType, infer Res> ? z.output<Res> : never;
export type ParsedRequest<C> = C extends CallDef<infer Req, z.ZodType> ? z.output<Req> : never;

/** A call without a body still sends `{}`. */
export const empty = z.object({}).strict();
/** A call whose success carries no data. */
export const nothing = z.null();
