import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * The agent's configuration, read once from the environment at start-up. Nothing else reads
 * `process.env`.
 */
const port = (fallback: number) =>
  z.coerce.number({ error: 'a port number (0 to 65535)' }).int().min(0).max(65535).default(fallback);

const schema = z
  .object({
    // QZ Tray's first insecure port: the qz-tray client tries ws://localhost:8182 first.
    PRINT_AGENT_PORT: port(8182),
    // QZ Tray's first secure port, used only when a certificate and key are given.
    PRINT_AGENT_SECURE_PORT: port(8181),
    PRINT_AGENT_TLS_CERT: z.string().optional(),
    PRINT_AGENT_TLS_KEY: z.string().optional(),
    // The Cainiao print component's port; "off" turns the adapter off.
    PRINT_AGENT_CAINIAO_PORT: z.union([z.literal('off'), port(13528)], {
      error: 'a port number (0 to 65535) or "off"',
    }),
    // Loopback only by default: the agent prints whatever an allowed page sends it.
    PRINT_AGENT_HOSTS: z.string().default('127.0.0.1,::1'),
    PRINT_AGENT_ORIGINS: z.string().default('http://localhost:8080,http://127.0.0.1:8080'),
    PRINT_AGENT_PDF_DIR: z.string().default(path.join(os.homedir(), 'PDF', 'print-agent')),
    PRINT_AGENT_LOG: z.enum(['info', 'silent']).default('info'),
  })
  .refine((c) => !c.PRINT_AGENT_TLS_CERT === !c.PRINT_AGENT_TLS_KEY, {
    message: 'PRINT_AGENT_TLS_CERT and PRINT_AGENT_TLS_KEY go together (both or neither)',
    path: ['PRINT_AGENT_TLS_CERT'],
  });

export interface AgentConfig {
  port: number;
  securePort: number;
  tls?: { cert: string; key: string };
  cainiaoPort: number | null;
  hosts: string[];
  /** Exact origins (scheme://host:port) allowed to connect, or '*' for any. */
  origins: string[] | '*';
  pdfDir: string;
  log: 'info' | 'silent';
}

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): AgentConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid print agent configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const list = (s: string) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const origins = list(c.PRINT_AGENT_ORIGINS);
  const bad = origins.filter((o) => o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o));
  if (bad.length > 0) {
    throw new ConfigError(
      `Invalid print agent configuration:\n  PRINT_AGENT_ORIGINS: ${bad.join(', ')} is not an origin like https://console.example.com (scheme and host, optional port, no path)`,
    );
  }
  const hosts = list(c.PRINT_AGENT_HOSTS);
  if (hosts.length === 0) throw new ConfigError('Invalid print agent configuration:\n  PRINT_AGENT_HOSTS: empty');
  return {
    port: c.PRINT_AGENT_PORT,
    securePort: c.PRINT_AGENT_SECURE_PORT,
    tls:
      c.PRINT_AGENT_TLS_CERT && c.PRINT_AGENT_TLS_KEY
        ? { cert: c.PRINT_AGENT_TLS_CERT, key: c.PRINT_AGENT_TLS_KEY }
        : undefined,
    cainiaoPort: c.PRINT_AGENT_CAINIAO_PORT === 'off' ? null : c.PRINT_AGENT_CAINIAO_PORT,
    hosts,
    origins: origins.includes('*') ? '*' : origins,
    pdfDir: path.resolve(c.PRINT_AGENT_PDF_DIR),
    log: c.PRINT_AGENT_LOG,
  };
}

export function loadConfig(): AgentConfig {
  return parseConfig(process.env);
}
