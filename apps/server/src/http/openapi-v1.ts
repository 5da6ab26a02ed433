import { envelope, errorEnvelope, fieldErrors, internalErrorData, v1 } from '@console/contract';
import { z } from 'zod';
import { webhooksSection } from './openapi-v1-webhooks.ts';

/** What each error status means for an integrator (docs/api-v1.md has the keys). */
const MEANINGS: Record<number, string> = {
  400: 'A body that is not JSON, or a malformed `Idempotency-Key` (`idempotencyKeyInvalid`).',
  401: 'No key, or an unknown, revoked or expired one (`apiKeyInvalid`); a console session (`sessionNotForApi`).',
  403: 'The key lacks this call’s scope (`scopeMissing`).',
  404: 'No such record, or not this key’s.',
  409: 'A request with this `Idempotency-Key` is still running (`requestInProgress`): retry shortly for its answer.',
  422: '`data` is `{ field: [messages] }`; `data.idempotencyKey`: the key was used with another request.',
  428: 'The key’s maker has notices to agree in the console before ordering.',
  429: 'The key’s budget for this minute is spent (`tooManyRequests`): wait `Retry-After` seconds.',
  500: '`data.errorId` is also in the server log.',
};

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests per minute this key may make.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this minute.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the next window.', schema: { type: 'integer' } },
};

const schemaOf = (s: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** Path and query fields of a call as OpenAPI parameters (each a property of its zod object). */
function parameters(schema: z.ZodType, where: 'path' | 'query') {
  const json = schemaOf(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
  }));
}

const errorResponse = (status: number) => ({
  description: MEANINGS[status] ?? 'An error envelope.',
  content: {
    'application/json': {
      schema: schemaOf(
        errorEnvelope(status === 422 ? fieldErrors : status === 500 ? internalErrorData : z.unknown()),
        'output',
      ),
    },
  },
});

/**
 * The v1 API's own OpenAPI 3.1 document (issue 39), from the same contract as the console's: its
 * calls (contract v1.ts), the API-key security scheme, the `Idempotency-Key` header of every POST
 * and the rate-limit headers. `webhooks` describes every event sent to a webhook endpoint (openapi-v1-webhooks.ts).
 */
export function openApiV1Document(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of v1.v1Calls) {
    const statuses = [...new Set([...v1.v1CommonStatuses, ...call.answers])].sort((a, b) => a - b);
    const parametersOf = [
      ...parameters(call.params, 'path'),
      ...parameters(call.query, 'query'),
      ...(call.method === 'POST'
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'Any 1–255 visible ASCII characters (a UUID). The same key with the same body replays the first answer for 24 h; with another body it is refused.',
              schema: { type: 'string', minLength: 1, maxLength: 255 },
            },
          ]
        : []),
    ];
    (paths[`/api/v1/${call.path}`] ??= {})[call.method.toLowerCase()] = {
      summary: call.summary,
      operationId: `${call.method.toLowerCase()}:${call.path}`,
      tags: [call.path.split('/')[0]],
      security: [{ apiKey: [] }],
      'x-scope': call.scope,
      parameters: parametersOf,
      ...(call.method === 'POST'
        ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(call.body, 'input') } } } }
        : {}),
      responses: {
        200: call.produces
          ? {
              description: 'The file',
              headers: RATE_HEADERS,
              content: { [call.produces]: { schema: { type: 'string', contentMediaType: call.produces } } },
            }
          : {
              description: 'Success envelope',
              headers: RATE_HEADERS,
              content: { 'application/json': { schema: schemaOf(envelope(call.response), 'output') } },
            },
        ...Object.fromEntries(statuses.map((s) => [s, errorResponse(s)])),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Import e-commerce logistics API v1',
      version,
      description:
        'For customers’ own systems (docs/api-v1.md). Opened by an API key: `Authorization: Bearer ck_live_…`. Answers are `{code, message, data}`; HTTP status equals code; errors add `key`. Only additive changes within v1.',
    },
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key made in the console.' } },
    },
    paths,
    webhooks: webhooksSection(),
  };
}

export const V1_OPENAPI_PATH = '/api/v1/openapi.json';
