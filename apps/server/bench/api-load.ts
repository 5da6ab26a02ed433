/**
 * Load generator for bench/api.ts, in its own process so it does not share the server's event
 * loop: autocannon with 50 connections, each request a new single order (its own order number)
 * through the console's `order/createImport` or v1's `POST /api/v1/orders` with an
 * `Idempotency-Key` of its own (what an integrator sends).
 *   node bench/api-load.ts <base url> <seconds> <console | v1> <token or key> <order number prefix>
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { jpOrderBody } from '../test/support/orders.ts';

const [base, seconds, door, token, prefix] = process.argv.slice(2) as [
  string,
  string,
  'console' | 'v1',
  string,
  string,
];
const url = door === 'v1' ? `${base}/api/v1/orders` : `${base}/api/order/createImport`;
let last = '';
const result = await autocannon({
  url,
  connections: 50,
  duration: Number(seconds),
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  requests: [
    {
      setupRequest: (req: any) => ({
        ...req,
        headers: { ...req.headers, ...(door === 'v1' ? { 'idempotency-key': randomUUID() } : {}) },
        body: JSON.stringify(jpOrderBody(prefix)),
      }),
      // The first refusal's answer, to say why when non-2xx is not 0.
      onResponse: (status: number, body: string) => {
        if (status !== 200 && !last) last = `${status} ${body.slice(0, 300)}`;
      },
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    firstRefusal: last,
  }),
);
