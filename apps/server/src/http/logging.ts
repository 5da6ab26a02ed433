import { jdAuthorize as jdContract } from '@console/contract';
import type { Config } from '../config.ts';

/** The server's log: pino through Fastify, at LOG_LEVEL, with credentials kept out of it. */
export function loggerOptions(level: Config['LOG_LEVEL']) {
  if (level === 'silent') return false as const;
  return {
    level,
    // Never log credentials: no headers or bodies are serialised, and these paths are redacted.
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      '*.password',
      '*.old_password',
      // JD app secrets and tokens (modules/jd-authorize), should one ever reach a log line.
      '*.appSecret',
      '*.app_secret',
      '*.access_token',
      '*.refresh_token',
    ],
    serializers: { req: logRequest },
  };
}

/**
 * A request as logged: Fastify's usual fields, with the query dropped from JD's OAuth callback
 * (its `code` is a credential until exchanged).
 */
export function logRequest(req: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  const url = req.url.startsWith(jdContract.JD_CALLBACK_PATH) ? jdContract.JD_CALLBACK_PATH : req.url;
  return { method: req.method, url, host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
