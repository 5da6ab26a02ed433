import net from 'node:net';
import os from 'node:os';
import { expect, it } from 'vitest';
import { parseConfig } from '../src/config.ts';
import { startAgent } from '../src/server.ts';

async function occupied(): Promise<{ port: number; close: () => void }> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

const base = { PRINT_AGENT_HOSTS: '127.0.0.1', PRINT_AGENT_PDF_DIR: os.tmpdir() };

it('leaves the Cainiao port to a Cainiao component already running there', async () => {
  const taken = await occupied();
  const lines: string[] = [];
  const agent = await startAgent(
    parseConfig({ ...base, PRINT_AGENT_PORT: '0', PRINT_AGENT_CAINIAO_PORT: String(taken.port) }),
    (l) => lines.push(l),
  );
  expect(agent.ports.cainiao).toBeNull();
  expect(agent.ports.qz).toBeGreaterThan(0);
  expect(lines.join('\n')).toContain(`Port ${taken.port} is in use (the Cainiao print component?)`);
  await agent.close();
  taken.close();
});

it('refuses to start on a QZ port already taken, saying QZ Tray may hold it', async () => {
  const taken = await occupied();
  await expect(
    startAgent(parseConfig({ ...base, PRINT_AGENT_PORT: String(taken.port), PRINT_AGENT_CAINIAO_PORT: 'off' })),
  ).rejects.toThrow(`Port ${taken.port} is in use (is QZ Tray running?`);
  taken.close();
});
