import { validate } from '@readme/openapi-parser';
import { v1 } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.ts';

/** The v1 API's own OpenAPI 3.1 document (issue 39): valid, every v1 call, the key's scheme, Idempotency-Key. */
describe('v1 OpenAPI document', async () => {
  const h = await createHarness({ seed: false });
  const served = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();

  it('is valid OpenAPI 3.1 and names every v1 call with its scope, the key scheme and Idempotency-Key on POSTs', async () => {
    const result = await validate(structuredClone(served));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(served.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const call of v1.v1Calls) {
      const op = served.paths[`/api/v1/${call.path}`][call.method.toLowerCase()];
      expect(op['x-scope'], call.path).toBe(call.scope);
      const idem = op.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key');
      expect(idem, call.path).toBe(call.method === 'POST');
      // A file call (a label PDF) answers its media type, not the envelope.
      expect(Object.keys(op.responses[200].content), call.path).toEqual([call.produces ?? 'application/json']);
    }
    expect(served.paths['/api/v1/labels'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['ids']);
    expect(served.paths['/api/v1/orders/{id}'].get.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
    });
    // Every event an endpoint may subscribe to is described, with the signature headers.
    expect(Object.keys(served.webhooks).sort()).toEqual(
      [...Object.keys(v1.webhookEventTypes), v1.TEST_EVENT_TYPE].sort(),
    );
    const created = served.webhooks['order.created'].post;
    expect(created.parameters.map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(created.requestBody.content['application/json'].schema.properties.type).toMatchObject({
      const: 'order.created',
    });
    // A batch's events carry the batch (as `GET /batches/{id}` gives it), not an order.
    const bodyOf = (type: string) => served.webhooks[type].post.requestBody.content['application/json'].schema;
    expect(Object.keys(bodyOf('order.created').properties.data.properties)).toEqual(['order', 'note']);
    for (const type of ['batch.committed', 'batch.failed']) {
      expect(bodyOf(type).properties.type).toMatchObject({ const: type });
      expect(Object.keys(bodyOf(type).properties.data.properties)).toEqual(['batch']);
      expect(bodyOf(type).properties.data.properties.batch.required).toContain('errorMessage');
    }
    expect(Object.keys(bodyOf('bill.issued').properties.data.properties)).toEqual(['bill']);
    expect(bodyOf('bill.issued').properties.data.properties.bill.required).toContain('totals');
  });
});
