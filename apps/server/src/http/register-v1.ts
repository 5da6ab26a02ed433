import { type ApiLanguage, contractErrorMap, ErrorCode, v1 } from '@console/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../lib/errors.ts';
import { languageOf, translate } from '../lib/messages.ts';
import type { Actor, Scope } from '../lib/scope.ts';
import { Download } from './call-context.ts';
import { contentDisposition } from './content-disposition.ts';
import { bearerOf, fieldErrorsOf } from './register-call.ts';

/** Who a v1 request is: the key, what it may do, and the tenant it acts for (modules/api-keys). */
export interface ApiCaller {
  keyId: number;
  prefix: string;
  scopes: ReadonlySet<string>;
  /**
   * The key as an actor of the console's services, so v1 calls reuse them unchanged: the user who
   * made the key (orders record it as their maker), in the role of its owner, with no console
   * permission at all.
   */
  actor: Actor;
  /** A customer key: its customer. An agent key: the agent's customers it is limited to, as they are now. */
  scope: Scope;
}

/** Where a key stands against its per-minute budget (sent as the RateLimit-* headers). */
export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
  exceeded: boolean;
}

/** The key's side of a v1 request (modules/api-keys provides it). */
export interface V1Auth {
  /** The caller, or 401 `apiKeyInvalid` / `sessionNotForApi`. */
  authenticate(token: string | null): Promise<ApiCaller>;
  /** Counts this request against the key's budget. */
  rate(keyId: number): Promise<RateState>;
}

/** What a POST's Idempotency-Key found: run it, or replay the stored answer. */
export type Claim = { kind: 'run'; startedAt: string } | { kind: 'replay'; status: number; body: string };

/** Stored answers of v1 POSTs (modules/api-keys/idempotency.ts provides them). */
export interface V1Idempotency {
  requestHash(method: string, path: string, body: unknown): string;
  /** Run, replay, or throw 409 `requestInProgress` / 422 `idempotencyKeyReused`. */
  claim(keyId: number, idemKey: string, requestHash: string): Promise<Claim>;
  answered(keyId: number, idemKey: string, status: number, body: string): Promise<void>;
  released(keyId: number, idemKey: string, startedAt: string): Promise<void>;
}

/** What a v1 handler knows of its request. */
export interface V1Context {
  readonly lang: ApiLanguage;
  readonly caller: ApiCaller;
  /** The key as the console's services know a caller (see ApiCaller.actor). */
  readonly actor: Actor;
  readonly scope: Scope;
  readonly ip: string;
}
export type V1Handler<C extends v1.V1CallDef> = (
  input: { params: v1.V1Params<C>; query: v1.V1Query<C>; body: v1.V1Body<C> },
  ctx: V1Context,
) => Promise<v1.V1Response<C> | Download>;

export interface V1Registrar {
  call<C extends v1.V1CallDef>(def: C, handler: V1Handler<C>): void;
}

const zodLocales = { en: contractErrorMap('en'), 'zh-CN': contractErrorMap('zh-CN') };

/** `value` as `schema` says, or 422 in the console's words (a batch checks each of its orders so). */
export function parsed<T extends z.ZodType>(schema: T, value: unknown, lang: ApiLanguage, where: string): z.output<T> {
  const r = schema.safeParse(value ?? {}, { error: zodLocales[lang] });
  if (r.success) return r.data;
  // A query or path field is named as such (`query.limit`), a body field as the console names it.
  const fields = fieldErrorsOf(r.error);
  throw AppError.validation(
    where === 'body' ? fields : Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${where}.${k}`, v])),
  );
}

function rateHeaders(reply: FastifyReply, r: RateState) {
  // IETF draft "RateLimit header fields": the budget, what is left of it, seconds to the next window.
  reply.header('ratelimit-limit', String(r.limit));
  reply.header('ratelimit-remaining', String(r.remaining));
  reply.header('ratelimit-reset', String(r.resetSeconds));
  if (r.exceeded) reply.header('retry-after', String(r.resetSeconds));
}

/**
 * The v1 API's sibling of register-call.ts: one contract definition → one route under /api/v1 with
 * its method, the key's authentication (never a session's), the per-key rate limit, the scope, the
 * contract's validation (422 in the console's words), `Idempotency-Key` on POSTs, and the console's
 * `{code, message, data}` envelope. Errors leave through the same error handler as the console's.
 * A sibling rather than a mode of the console's registrar: the console's calls are all POSTs with
 * bodies, AES envelopes, uploads and downloads, none of which v1 has, and v1's key, rate and
 * idempotency steps have no place there.
 */
export function createV1Registrar(
  app: FastifyInstance,
  deps: { auth: V1Auth; idempotency: V1Idempotency },
): V1Registrar {
  return {
    call(def, handler) {
      const url = `/api/v1/${def.path.replace(/\{(\w+)\}/g, ':$1')}`;
      app.route({
        method: def.method,
        url,
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const lang = languageOf(request.headers['accept-language']);
          const caller = await deps.auth.authenticate(bearerOf(request));
          const rate = await deps.auth.rate(caller.keyId);
          rateHeaders(reply, rate);
          if (rate.exceeded) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'tooManyRequests');
          if (!caller.scopes.has(def.scope)) {
            throw new AppError(ErrorCode.FORBIDDEN, 'scopeMissing', null, { scope: def.scope });
          }
          const input = {
            params: parsed(def.params, request.params, lang, 'params'),
            query: parsed(def.query, request.query, lang, 'query'),
            body: def.method === 'POST' ? parsed(def.body, request.body, lang, 'body') : ({} as never),
          };
          const ctx: V1Context = { lang, caller, actor: caller.actor, scope: caller.scope, ip: request.ip };
          if (def.produces) {
            // A file (a label PDF): its bytes, not the envelope; a refusal before it is an envelope still.
            const file = (await handler(input as never, ctx)) as unknown;
            if (!(file instanceof Download)) throw new Error(`${def.path}: a file call answered no file`);
            return reply
              .status(200)
              .type(file.contentType)
              .header('content-disposition', contentDisposition(file.filename))
              .send(file.body);
          }
          const run = async () => {
            const data = def.response.parse(await handler(input as never, ctx));
            return JSON.stringify({ code: ErrorCode.OK, message: translate(lang, 'ok'), data });
          };

          const idemKey = request.headers[v1.IDEMPOTENCY_HEADER];
          if (def.method !== 'POST' || idemKey === undefined) {
            return reply
              .status(200)
              .type('application/json; charset=utf-8')
              .send(await run());
          }
          if (typeof idemKey !== 'string' || !v1.idempotencyKey.safeParse(idemKey).success) {
            throw AppError.badRequest('idempotencyKeyInvalid');
          }
          const hash = deps.idempotency.requestHash(def.method, request.url.split('?')[0]!, request.body);
          const claim = await deps.idempotency.claim(caller.keyId, idemKey, hash);
          if (claim.kind === 'replay') {
            return reply
              .status(claim.status)
              .header('idempotent-replayed', 'true')
              .type('application/json; charset=utf-8')
              .send(claim.body);
          }
          let body: string;
          try {
            body = await run();
          } catch (e) {
            await deps.idempotency.released(caller.keyId, idemKey, claim.startedAt);
            throw e;
          }
          await deps.idempotency.answered(caller.keyId, idemKey, 200, body);
          return reply.status(200).type('application/json; charset=utf-8').send(body);
        },
      });
    },
  };
}
