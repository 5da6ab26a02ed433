import { type Harness, multipart } from '../harness.ts';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A small but real PDF (file-type recognises it by its header): a permit's bytes. */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * A real SMTP server in the test's process on a free loopback port (plain, no auth), the one
 * boundary the permit mails cross. Each mail it accepts is handed to `onMail` with its recipients
 * and raw text; `onRcptTo` may refuse a recipient with a reply code. `env`: the settings that
 * point the server at it.
 */
export async function smtpReceiver(opts: {
  onMail: (to: string[], raw: string) => void;
  onRcptTo?: SMTPServerOptions['onRcptTo'];
}) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    ...(opts.onRcptTo ? { onRcptTo: opts.onRcptTo } : {}),
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        opts.onMail(
          session.envelope.rcptTo.map((r) => r.address),
          Buffer.concat(chunks).toString('utf8'),
        );
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'permits@example.com' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sends order `orderNo`'s permit to `to` as the export-declaration tests do: the order's
 * nomination gets the address, the permit is uploaded (the mail is queued after the commit).
 * Answers the order's id and the upload's answer, for the caller to check.
 */
export async function uploadPermitTo(h: Harness, token: string, orderNo: string, to: string) {
  const o = await h.db
    .selectFrom('orders')
    .select(['id', 'export_nomination_id'])
    .where('order_no', '=', orderNo)
    .executeTakeFirstOrThrow();
  await h.db
    .updateTable('export_nominations')
    .set({ receive_email: to })
    .where('id', '=', o.export_nomination_id!)
    .execute();
  const m = multipart({ orderId: String(o.id) }, { name: 'permit.pdf', data: TINY_PDF });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/exportDeclaration/uploadPermit',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, 'accept-language': 'en' },
    payload: m.payload,
  });
  return { orderId: o.id, res };
}
