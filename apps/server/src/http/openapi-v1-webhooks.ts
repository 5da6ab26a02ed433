import { v1 } from '@console/contract';
import { z } from 'zod';

/**
 * The v1 document's `webhooks` section (OpenAPI 3.1): one entry per event type an endpoint may
 * subscribe to (contract v1-webhooks.ts), each a POST to the customer's URL with the event body
 * and the Standard Webhooks headers, plus the test event. Built from the contract, so a new event
 * type is described the moment it exists.
 */
export function webhooksSection() {
  const headers = [
    { name: 'webhook-id', description: 'The event’s id: the same on every retry. Deduplicate on it.' },
    { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed.' },
    {
      name: 'webhook-signature',
      description:
        'Space-separated `v1,<base64>` HMAC-SHA256 signatures of `id.timestamp.body` with the endpoint’s secret (two for 24 h after a rotation). Verify with the `standardwebhooks` package.',
    },
  ].map((h) => ({ ...h, in: 'header', required: true, schema: { type: 'string' } }));
  const entry = (type: string, description: string) => {
    const body = v1.webhookEventBodyOf(type).extend({ type: z.literal(type) });
    const { $schema: _, ...schema } = z.toJSONSchema(body, { io: 'output', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    return {
      post: {
        summary: type,
        description,
        operationId: `webhook:${type}`,
        parameters: headers,
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: {
          '2XX': { description: 'Received. Any other answer (or none within 10 s) is retried with backoff.' },
        },
      },
    };
  };
  return {
    ...Object.fromEntries(Object.entries(v1.webhookEventTypes).map(([type, d]) => [type, entry(type, d)])),
    [v1.TEST_EVENT_TYPE]: entry(
      v1.TEST_EVENT_TYPE,
      'Sent by `POST /webhook-endpoints/{id}/test` only; `sequence` 0 and `data` empty (its schema here shows the common shape).',
    ),
  };
}
