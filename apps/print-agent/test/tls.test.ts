import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseConfig } from '../src/config.ts';
import { startAgent, type Agent } from '../src/server.ts';

/** wss:// on QZ's secure port when a certificate is configured (no printing: agent.test.ts does). */

let dir: string;
let agent: Agent;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'print-agent-tls-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ], { stdio: 'ignore' }); // prettier-ignore
  agent = await startAgent(
    parseConfig({
      PRINT_AGENT_PORT: '0',
      PRINT_AGENT_SECURE_PORT: '0',
      PRINT_AGENT_TLS_CERT: path.join(dir, 'cert.pem'),
      PRINT_AGENT_TLS_KEY: path.join(dir, 'key.pem'),
      PRINT_AGENT_CAINIAO_PORT: 'off',
      PRINT_AGENT_HOSTS: '127.0.0.1',
      PRINT_AGENT_ORIGINS: 'https://console.test',
      PRINT_AGENT_PDF_DIR: dir,
    }),
  );
});

afterAll(async () => {
  await agent?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('serves the QZ protocol over wss:// beside ws://, with the same Origin check', async () => {
  expect(agent.ports.qzSecure).toBeGreaterThan(0);
  expect(agent.ports.cainiao).toBeNull();
  const ws = new WebSocket(`wss://127.0.0.1:${agent.ports.qzSecure}`, {
    origin: 'https://console.test',
    rejectUnauthorized: false,
  });
  const reply = await new Promise<unknown>((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ call: 'getVersion', uid: 's1' })));
    ws.on('message', (d) => resolve(JSON.parse(d.toString())));
    ws.on('error', reject);
  });
  expect(reply).toEqual({ uid: 's1', result: '2.2.6' });
  ws.close();
  const status = await new Promise<number>((resolve) => {
    const bad = new WebSocket(`wss://127.0.0.1:${agent.ports.qzSecure}`, {
      origin: 'https://evil.example',
      rejectUnauthorized: false,
    });
    bad.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    bad.on('error', () => {});
  });
  expect(status).toBe(403);
});
