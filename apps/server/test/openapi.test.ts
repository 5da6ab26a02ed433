import { validate } from '@readme/openapi-parser';
import { allCalls, declaredStatuses, exportJobs, FILE_TYPES, orders } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { checkErrorKey, createHarness } from './harness.ts';

/**
 * The served OpenAPI document (issue 30 #5): valid for a maintained validator, every call declaring
 * the statuses it can answer, its files' real types and its upload's file part; and an answer
 * outside what its call declares fails the test that meets it (harness `checkErrorKey`).
 */
describe('OpenAPI document', async () => {
  const h = await createHarness();
  const served = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json();

  it('is valid OpenAPI 3.1 for @readme/openapi-parser (every $ref resolves)', async () => {
    const result = await validate(structuredClone(served));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    // The recursive category tree is one named schema, not a dangling `#/$defs/…`.
    expect(JSON.stringify(served)).not.toContain('#/$defs/');
  });

  it('declares for every call the statuses its contract gives it, each an error envelope with a key', () => {
    for (const call of allCalls) {
      const responses = served.paths[`/api/${call.path}`].post.responses;
      expect(Object.keys(responses).map(Number), call.path).toEqual(declaredStatuses(call));
    }
    const e404 = served.components.responses.E404.content['application/json'].schema;
    expect(e404.required).toEqual(expect.arrayContaining(['code', 'message', 'key', 'data']));
    const one = served.paths['/api/order/order'].post.responses;
    expect(one[404]).toEqual({ $ref: '#/components/responses/E404' });
    expect(one[403]).toEqual({ $ref: '#/components/responses/E403' });
    // A call taking the version its form was loaded from names the stale answer.
    expect(served.paths['/api/order/order/update'].post.responses[409].$ref).toBe('#/components/responses/E409Stale');
    // Login neither needs a token nor can be ended elsewhere, but it is throttled.
    expect(Object.keys(served.paths['/api/login'].post.responses)).toEqual(
      expect.not.arrayContaining(['401', '403', '430']),
    );
    expect(served.paths['/api/login'].post.responses[429]).toBeDefined();
  });

  it('declares what a download really is, and the file part of every upload', () => {
    const blobs = allCalls.filter((c) => c.kind === 'blob');
    for (const call of blobs) {
      const content = served.paths[`/api/${call.path}`].post.responses[200].content;
      expect(Object.keys(content), call.path).toEqual(FILE_TYPES[call.file ?? 'xlsx']);
      expect(content['application/octet-stream'], call.path).toBeUndefined();
    }
    expect(Object.keys(served.paths['/api/order/download/labelA'].post.responses[200].content)).toEqual([
      'application/pdf',
    ]);
    const uploads = allCalls.filter((c) => c.kind === 'multipart');
    expect(uploads.length).toBeGreaterThan(15);
    for (const call of uploads) {
      const form = served.paths[`/api/${call.path}`].post.requestBody.content['multipart/form-data'].schema;
      expect(form.properties.file, call.path).toEqual({ type: 'string', contentMediaType: 'application/octet-stream' });
      expect(form.required, call.path).toContain('file');
    }
  });

  it('declares the 202 and the Prefer header of every download that may be asked for without waiting, and what export/file answers', () => {
    const asyncCalls = allCalls.filter(exportJobs.answersAsync);
    expect(asyncCalls.length).toBeGreaterThan(20);
    for (const call of asyncCalls) {
      const post = served.paths[`/api/${call.path}`].post;
      expect(post.parameters, call.path).toEqual([{ $ref: '#/components/parameters/PreferRespondAsync' }]);
      expect(post.responses[202], call.path).toEqual({ $ref: '#/components/responses/DownloadAccepted' });
    }
    expect(served.components.parameters.PreferRespondAsync).toMatchObject({
      name: 'Prefer',
      in: 'header',
      required: false,
      schema: { type: 'string', examples: ['respond-async'] },
    });
    const accepted = served.components.responses.DownloadAccepted;
    expect(accepted.headers['Preference-Applied'].schema).toEqual({ type: 'string', const: 'respond-async' });
    const body = accepted.content['application/json'].schema;
    expect(body.properties.code).toMatchObject({ const: 202 });
    expect(body.properties.data.properties.id.type).toBe('string');
    expect(body.properties.data.required).toEqual(['id']);
    // export/file answers the file itself: no Prefer, no 202; its own 404, 409 and 503 say what they mean.
    const file = served.paths['/api/export/file'].post;
    expect(file.parameters).toBeUndefined();
    expect(file.responses[202]).toBeUndefined();
    expect(file.responses[200].description).toMatch(/removed once fetched/);
    expect(file.responses[404]).toEqual({ $ref: '#/components/responses/E404DownloadFile' });
    expect(file.responses[409]).toEqual({ $ref: '#/components/responses/E409DownloadNotReady' });
    expect(file.responses[503]).toEqual({ $ref: '#/components/responses/E503DownloadFile' });
    expect(served.components.responses.E409DownloadNotReady.description).toContain('`downloadNotReady`');
    expect(served.components.responses.E503DownloadFile.description).toContain('`downloadInterrupted`');
    // A call that builds no file takes no Prefer.
    expect(served.paths['/api/order/order'].post.parameters).toBeUndefined();
  });

  it('fails a test whose call answers a status or a file type it does not declare', async () => {
    // order/getDefaultNumber names no record: a 404 from it would be a status its call does not declare.
    expect(declaredStatuses(orders.getDefaultNumber)).not.toContain(404);
    expect(() =>
      checkErrorKey('order/getDefaultNumber', 404, { code: 404, message: 'x', key: 'notFound', data: null }),
    ).toThrow(/does not declare/);
    expect(() =>
      checkErrorKey('/api/order/order', 404, { code: 404, message: 'x', key: 'orderNotFound', data: null }),
    ).not.toThrow();
    expect(() => checkErrorKey('/api/order/download/labelA', 200, null, 'application/octet-stream')).toThrow(
      /does not declare/,
    );
    // Through a real answer: the harness's own call refuses what the server answers outside the contract.
    const token = await h.login('admin');
    const gone = await h.post('order/order', { id: 99_999 }, token);
    expect(gone.status).toBe(404);
  });
});
