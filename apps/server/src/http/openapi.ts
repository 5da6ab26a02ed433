import {
  type CallDef,
  FILE_TYPES,
  STALE_KEY,
  allCalls,
  declaredStatuses,
  envelope,
  errorEnvelope,
  exportJobs,
  fieldErrors,
  internalErrorData,
} from '@console/contract';
import { z } from 'zod';

const takesVersion = (s: z.ZodType) => s instanceof z.ZodObject && ('version' in s.shape || 'orderVersion' in s.shape);

/** What each error status means for a client (spec §8, docs/api.md). */
const MEANINGS: Record<number, string> = {
  400: 'A body that is not valid JSON, an AES envelope that does not open, or a value the database cannot store; `message` "no data" is silent in the console.',
  401: 'Missing or expired access token: refresh once and replay.',
  403: 'The caller lacks the permission (route name) or the right to act on this record.',
  404: 'The record is gone or is not the caller’s.',
  409: 'Someone changed the same data at the same moment, or the call’s own rule refused the state the data is in; nothing was saved.',
  413: 'The body or the uploaded file is past the limit.',
  415: 'The body is neither JSON nor (for uploads) multipart/form-data.',
  422: '`data` is `{ field: [messages] }`.',
  428: 'Unread or unagreed notices block ordering; `data.notices` lists them.',
  429: 'Too many attempts, or too many downloads of this customer being prepared: wait and try again.',
  430: 'The session was ended elsewhere; the message says why.',
  500: '`data.errorId` is also in the server log.',
  503: 'The file store (`fileStoreUnavailable`) or the database (`databaseUnavailable`, with `Retry-After`) cannot be reached now, or the database stopped a statement that ran too long (`databaseTimeout`: narrow the request): nothing was changed.',
  507: 'Nothing was saved for want of room: the disk is full (`storageFull`, try later) or the customer’s files reached their quota (`storageQuotaExceeded`).',
};

/**
 * JSON Schemas of the document. zod writes a recursive schema (the category tree of
 * `item/categories`) with `$ref: "#/$defs/…"` inside the schema, which in an OpenAPI document points
 * at the document's root, where nothing is: the definitions move to `components.schemas` under a
 * name unique to the call and the references follow them.
 */
function schemaWriter() {
  const components: Record<string, unknown> = {};
  const write = (s: z.ZodType, io: 'input' | 'output', prefix: string) => {
    const {
      $defs,
      $schema: _,
      ...schema
    } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown> & {
      $defs?: Record<string, unknown>;
    };
    if (!$defs) return schema;
    const name = (id: string) => `${prefix}.${id}`.replace(/[^A-Za-z0-9._-]/g, '_');
    const relink = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(relink);
      if (!node || typeof node !== 'object') return node;
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) =>
          k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
            ? [k, `#/components/schemas/${name(v.slice('#/$defs/'.length))}`]
            : [k, relink(v)],
        ),
      );
    };
    for (const [id, def] of Object.entries($defs)) components[name(id)] = relink(def);
    return relink(schema) as Record<string, unknown>;
  };
  return { write, components };
}

/**
 * One shared answer per error status (`components.responses`): the error envelope, its `data` as
 * the status defines it; a stale save's 409 apart, since it answers the record as it stands now.
 */
function errorResponseComponents(write: ReturnType<typeof schemaWriter>['write']) {
  const out: Record<string, unknown> = {};
  const statuses = new Set(allCalls.flatMap(declaredStatuses));
  statuses.delete(200);
  statuses.delete(exportJobs.ACCEPTED);
  const response = (status: number, description: string) => ({
    description,
    content: {
      'application/json': {
        schema: write(
          errorEnvelope(status === 422 ? fieldErrors : status === 500 ? internalErrorData : z.unknown()),
          'output',
          `error${status}`,
        ),
      },
    },
  });
  for (const status of statuses) out[`E${status}`] = response(status, MEANINGS[status] ?? 'An error envelope.');
  out.E409Stale = response(
    409,
    `${MEANINGS[409]} A stale \`version\` answers key \`${STALE_KEY}\` and \`data\` \`{ version, current }\`, the record now.`,
  );
  // export/file's own: what its download's state means (modules/export-jobs/export-downloads.ts).
  out.E404DownloadFile = response(
    404,
    'No download of the caller’s by that id: never asked, another user’s, already fetched (the file is for one answer) or swept; or the failed download’s own 404, as its call would have answered.',
  );
  out.E409DownloadNotReady = response(
    409,
    'Key `downloadNotReady`: the file is still being built; follow `export/progress` and fetch it once its phase is `done` or `failed`. (A failed download answers its own failure, as its call would have: any status that call declares.)',
  );
  out.E503DownloadFile = response(
    503,
    `Key \`downloadInterrupted\`: the instance building the file stopped (a restart, a deploy) and it will never be made; ask the download again. ${MEANINGS[503]}`,
  );
  return out;
}

/** `Prefer: respond-async` (RFC 7240), which every signed-in download honours. */
const PREFER_RESPOND_ASYNC = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description:
    '`respond-async`: the download is not waited for. It answers 202 with its `id` at once and is built on the server; follow `export/progress` with that id, then fetch the file with `export/file` (any instance). Without it the call answers the file itself.',
  schema: { type: 'string', examples: [exportJobs.RESPOND_ASYNC] },
};

/** The answer of a download asked for with `Prefer: respond-async`. */
function acceptedResponse(write: ReturnType<typeof schemaWriter>['write']) {
  const schema = write(envelope(exportJobs.downloadAccepted), 'output', 'downloadAccepted');
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  properties.code = { ...properties.code, const: exportJobs.ACCEPTED };
  return {
    description:
      'Accepted, asked with `Prefer: respond-async`: `data.id` names the download (the call’s `progressId` when it gives one). `export/progress` follows it; `export/file` then answers the file, or the failure the call would have answered.',
    headers: {
      'Preference-Applied': { schema: { type: 'string', const: exportJobs.RESPOND_ASYNC } },
    },
    content: { 'application/json': { schema } },
  };
}

/** export/file's answers that differ from the shared ones. */
const DOWNLOAD_FILE_ERRORS: Record<number, string> = {
  404: 'E404DownloadFile',
  409: 'E409DownloadNotReady',
  503: 'E503DownloadFile',
};

/** The error answers of a call: the statuses the contract says it can answer (statuses.ts). */
const errorResponses = (call: CallDef) =>
  Object.fromEntries(
    declaredStatuses(call)
      .filter((status) => status !== 200)
      .map((status) => [
        status,
        {
          $ref:
            status === exportJobs.ACCEPTED
              ? '#/components/responses/DownloadAccepted'
              : call.path === exportJobs.exportFile.path && DOWNLOAD_FILE_ERRORS[status]
                ? `#/components/responses/${DOWNLOAD_FILE_ERRORS[status]}`
                : `#/components/responses/E${status}${status === 409 && takesVersion(call.request) ? 'Stale' : ''}`,
        },
      ]),
  );

/** OpenAPI 3.1 document generated from the contract (zod's own JSON Schema output). */
export function openApiDocument(version: string) {
  const { write, components } = schemaWriter();
  const paths: Record<string, unknown> = {};
  for (const call of allCalls) {
    const ok =
      call.kind === 'blob'
        ? {
            description:
              call.path === exportJobs.exportFile.path
                ? 'The finished file, named in a UTF-8 `Content-Disposition`, as the download call would have answered it; removed once fetched.'
                : 'The file, named in a UTF-8 `Content-Disposition`.',
            content: Object.fromEntries(
              FILE_TYPES[call.file ?? 'xlsx'].map((type) => [
                type,
                { schema: { type: 'string', contentMediaType: type } },
              ]),
            ),
          }
        : {
            description: 'Success envelope',
            content: { 'application/json': { schema: write(envelope(call.response), 'output', `${call.path}.ok`) } },
          };
    const request = write(call.request, 'input', `${call.path}.request`);
    // Uploads send their fields as form parts beside one file part named `file`.
    const body =
      call.kind === 'multipart'
        ? {
            'multipart/form-data': {
              schema: {
                ...request,
                type: 'object',
                properties: {
                  ...((request.properties as object | undefined) ?? {}),
                  file: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
                required: [...((request.required as string[] | undefined) ?? []), 'file'],
              },
            },
          }
        : { 'application/json': { schema: request } };
    paths[`/api/${call.path}`] = {
      post: {
        summary: call.summary,
        operationId: call.path,
        tags: [call.path.split('/')[0]],
        security: call.auth ? [{ bearer: [] }] : [],
        'x-aes': call.aes,
        'x-permission': call.permission,
        'x-timeout-ms': call.timeout,
        ...(exportJobs.answersAsync(call)
          ? { parameters: [{ $ref: '#/components/parameters/PreferRespondAsync' }] }
          : {}),
        requestBody: { required: true, content: body },
        responses: { 200: ok, ...errorResponses(call) },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Import e-commerce logistics console API',
      version,
      description:
        'Every call is POST with the envelope {code, message, data}; HTTP status equals code; errors add `key`, the message key. Calls with x-aes use the AES-256-GCM envelope described in docs/api.md. A signed-in download sent with `Prefer: respond-async` answers 202 with its id at once; `export/progress` follows it and `export/file` fetches it.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      parameters: { PreferRespondAsync: PREFER_RESPOND_ASYNC },
      responses: { ...errorResponseComponents(write), DownloadAccepted: acceptedResponse(write) },
      schemas: components,
    },
    paths,
  };
}
