import { allCalls, envelope } from '@console/contract';
import { z } from 'zod';

const takesVersion = (s: z.ZodType) => s instanceof z.ZodObject && ('version' in s.shape || 'orderVersion' in s.shape);

/** OpenAPI 3.1 document generated from the contract (zod's own JSON Schema output). */
export function openApiDocument(version: string) {
  const paths: Record<string, unknown> = {};
  for (const call of allCalls) {
    const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
    const ok =
      call.kind === 'blob'
        ? {
            description: 'The file',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          }
        : {
            description: 'Success envelope',
            content: {
              'application/json': {
                schema: z.toJSONSchema(envelope(call.response), { io: 'output', unrepresentable: 'any' }),
              },
            },
          };
    paths[`/api/${call.path}`] = {
      post: {
        summary: call.summary,
        operationId: call.path,
        tags: [call.path.split('/')[0]],
        security: call.auth ? [{ bearer: [] }] : [],
        'x-aes': call.aes,
        'x-permission': call.permission,
        'x-timeout-ms': call.timeout,
        requestBody: {
          required: true,
          content:
            call.kind === 'multipart'
              ? { 'multipart/form-data': { schema: schema(call.request) } }
              : { 'application/json': { schema: schema(call.request) } },
        },
        responses: {
          200: ok,
          401: { description: 'Missing or expired access token: refresh once and replay.' },
          422: { description: '`data` is `{ field: [messages] }`.' },
          // Calls that take the version an edit form was loaded from (contract versions.ts).
          ...(takesVersion(call.request)
            ? {
                409: {
                  description: 'Stale `version`: nothing saved; `data` is `{ version, current }`, the record now.',
                },
              }
            : {}),
          430: { description: 'The session was ended elsewhere; the message says why.' },
          500: { description: '`data.errorId` is also in the server log.' },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Import e-commerce logistics console API',
      version,
      description:
        'Every call is POST with the envelope {code, message, data}; HTTP status equals code. Calls with x-aes use the AES-256-GCM envelope described in docs/api.md.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
