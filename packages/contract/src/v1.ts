import { z } from 'zod';
import { type ApiScope, apiScope, instant } from './api-keys.ts';
import { ErrorCode, isoTime } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { pattern } from './messages.ts';
import { createImport } from './orders.create.ts';
import { orderStatus } from './orders.rows.ts';
import { channelCode } from './reference.ts';

/**
 * The v1 API (issue 39): the door for customers' own systems, opened by an API key
 * (`Authorization: Bearer ck_live_…`), never by a console session. Calls are REST-shaped
 * (`GET /api/v1/orders/{id}`) where the console's are `POST /api/<path>`, so they have a definition
 * of their own; their answers use the console's envelope and error keys. Within v1 only additive
 * changes are allowed (docs/decisions/2026-12-06-v1-api-keys.md): a field, a filter or a call may
 * be added; nothing is removed, renamed or given another meaning.
 */
export interface V1CallDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Under /api/v1, OpenAPI style (`orders/{id}`). */
  readonly path: string;
  readonly summary: string;
  /** The scope the key must hold. */
  readonly scope: ApiScope;
  readonly params: P;
  readonly query: Q;
  /** The JSON body (POST only; every POST honours `Idempotency-Key`). */
  readonly body: B;
  /** `data` of the success envelope. */
  readonly response: R;
  /** A file answer (a label PDF) instead of the envelope; errors are envelopes still. */
  readonly produces?: 'application/pdf';
  /** Statuses this call's own rules answer beyond those of every v1 call. */
  readonly answers: readonly ErrorCode[];
}

const none = z.object({}).strict();

export function defineV1Call<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: Partial<Pick<V1CallDef<P, Q, B, R>, 'params' | 'query' | 'body' | 'answers' | 'produces'>> &
    Pick<V1CallDef<P, Q, B, R>, 'method' | 'path' | 'summary' | 'scope' | 'response'>,
): V1CallDef<P, Q, B, R> {
  return { params: none as never, query: none as never, body: none as never, answers: [], ...def };
}

export type V1Params<C> = C extends V1CallDef<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.output<P> : never;
export type V1Query<C> = C extends V1CallDef<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.output<Q> : never;
export type V1Body<C> = C extends V1CallDef<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.output<B> : never;
export type V1Response<C> = C extends V1CallDef<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** The header of a retried POST: any client-made token of 1–255 visible ASCII characters (a UUID fits). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const idempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/);

/** Statuses every v1 call may answer. */
export const v1CommonStatuses = [
  ErrorCode.UNAUTHORIZED,
  ErrorCode.FORBIDDEN,
  ErrorCode.VALIDATION,
  ErrorCode.TOO_MANY_REQUESTS,
  ErrorCode.INTERNAL,
] as const;

/** An order as the v1 API gives it. Fields may be added within v1, never taken away. */
export const v1Order = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  orderNo: z.string(),
  waybillNo: z.string().nullable(),
  channel: channelCode,
  status: orderStatus,
  intercepted: z.boolean(),
  userRefNo: z.string().nullable(),
  recipientName: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type V1Order = z.infer<typeof v1Order>;

export const createOrder = defineV1Call({
  method: 'POST',
  path: 'orders',
  scope: 'orders:write',
  answers: [ErrorCode.CONFLICT, ErrorCode.NOTICES_PENDING],
  summary:
    "Create one order: the console's single create (same fields, rules, defaults and messages). Send `Idempotency-Key` to retry safely.",
  body: createImport.request,
  response: createImport.response,
});

export const getOrder = defineV1Call({
  method: 'GET',
  path: 'orders/{id}',
  scope: 'orders:read',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One order by its id (404 when it is not the key’s). By order number: `GET /orders?orderNo=…`.',
  params: z.object({ id: idOf }),
  response: v1Order,
});

/** An opaque cursor: the position after the last order of a page. */
export const v1Cursor = text({ max: 200 }).regex(pattern(/^[A-Za-z0-9_-]+$/, 'cursor'));

export const listOrders = defineV1Call({
  method: 'GET',
  path: 'orders',
  scope: 'orders:read',
  summary:
    'Orders in the order of their last change (then id), a page at a time: pass `nextCursor` back as `cursor` for the next page. Stable under inserts; an order changed while you page comes again later.',
  query: z.object({
    cursor: v1Cursor.optional(),
    limit: whole(1, 200).default(50),
    updatedSince: instant.optional(),
    status: orderStatus.optional(),
    channel: channelCode.optional(),
    orderNo: text({ min: 1, max: 64 }).optional(),
    /** An agent's key: one of its customers. */
    customerId: idOf.optional(),
  }),
  response: z.object({ list: z.array(v1Order), nextCursor: z.string().nullable() }),
});

/** Every v1 call: the registrar, the OpenAPI document and the tests walk it. */
export const v1Calls = [createOrder, getOrder, listOrders] as const;
export { apiScope };
