/**
 * Load generator for bench/orders.ts, run in its own process so it does not share the
 * server's event loop: autocannon with 50 connections, each request a random body from
 * the list given.   node bench/orders-load.ts <url> <token> <seconds> <bodies.json>
 */
import fs from 'node:fs';
import autocannon from 'autocannon';

const [url, token, seconds, bodiesFile] = process.argv.slice(2) as [string, string, string, string];
const bodies = JSON.parse(fs.readFileSync(bodiesFile, 'utf8')) as unknown[];
const result = await autocannon({
  url,
  connections: 50,
  duration: Number(seconds),
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  requests: [
    {
      setupRequest: (req: any) => ({ ...req, body: JSON.stringify(bodies[Math.floor(Math.random() * bodies.length)]) }),
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
);
