import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { clearance as c } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { languageOf, translate } from '../../lib/messages.ts';
import type { ClearanceService } from './clearance.service.ts';

const H = c.CLEARANCE_WEBHOOK_HEADERS;
const WINDOW = c.CLEARANCE_WEBHOOK_WINDOW_SECONDS;
const header = (v: string | string[] | undefined) => (Array.isArray(v) ? undefined : v);

/** HMAC-SHA256 of `timestamp + "." + raw body`, hex: what the company signs. */
export function clearanceSignature(secret: string, timestamp: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex');
}

/**
 * `POST /api/clearance/webhook`: a clearance company posts its results, signed with its own
 * secret (config CLEARANCE_WEBHOOK_SECRETS). The one write without a user: no token is read
 * (a user's token without a signature is refused like any unsigned call), the raw body is what
 * the signature covers, an unknown company and a wrong secret get the same answer after the same
 * work, a timestamp off by more than 5 minutes is refused, and a delivery (its id, its
 * signature) is taken once, recorded in the database so every instance refuses a replay.
 */
export function clearanceWebhookRoutes(
  app: FastifyInstance,
  service: ClearanceService,
  secrets: ReadonlyMap<string, string>,
  clock: () => Date,
) {
  // Unknown companies are checked against a secret no one has: the same HMAC and compare.
  const nobody = randomBytes(32).toString('hex');
  return app.register(async (scope) => {
    // The signature is over the bytes as sent: keep them, parse after checking.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 2 * 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );
    scope.post('/api/clearance/webhook', async (request, reply) => {
      const lang = languageOf(request.headers['accept-language']);
      const raw = request.body as Buffer;
      const timestamp = header(request.headers[H.timestamp]) ?? '';
      const nowS = Math.floor(clock().getTime() / 1000);
      if (!/^\d{9,11}$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > WINDOW)
        throw AppError.unauthorized('clearanceWebhookStale');
      const company = header(request.headers[H.company]) ?? '';
      const given = (header(request.headers[H.signature]) ?? '').replace(/^sha256=/, '').toLowerCase();
      const secret = secrets.get(company);
      const expected = clearanceSignature(secret ?? nobody, timestamp, raw);
      // Compared as digests, so the compare takes the same time whatever length was sent.
      const same = timingSafeEqual(
        createHash('sha256').update(expected).digest(),
        createHash('sha256').update(given).digest(),
      );
      if (!same || secret === undefined) throw AppError.unauthorized('clearanceWebhookSignature');

      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw AppError.badRequest('badJson');
      }
      const parsed = c.clearanceWebhookBody.safeParse(json);
      if (!parsed.success) {
        const fields: Record<string, string[]> = {};
        for (const i of parsed.error.issues) (fields[i.path.join('.') || 'body'] ??= []).push(i.message);
        throw AppError.validation(fields);
      }
      const at = clock().toISOString();
      const forget = new Date(clock().getTime() - 2 * WINDOW * 1000).toISOString();
      if (!(await service.repo.take(company, [`d:${parsed.data.deliveryId}`, `s:${given}`], at, forget)))
        throw AppError.conflict('clearanceWebhookReplay');
      const data = await service.fromWebhook(lang, company, parsed.data);
      return reply.status(200).send({ code: 200, message: translate(lang, 'ok'), data });
    });
  });
}
