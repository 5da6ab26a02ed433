import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDeclarations } from '../../src/seed/export-declarations.ts';
import { createHarness, type Harness, type Instance, multipart, secondInstance } from '../harness.ts';
import { settled as settledJobs, waitFor } from '../support/jobs.ts';
import { smtpReceiver, TINY_PDF } from '../support/smtp.ts';
import { heldStore, INSTANCES_ENV, leaseOutlived } from '../support/two-instances.ts';

/**
 * Issue 27: the permit's e-mail was sent in the upload's call (a slow mail server held it). Now it
 * is a job: enqueued on a `SERVER_ROLE=web` instance, sent by the other, its result read from
 * either; a mail whose instance died before sending is sent by another, exactly once, after the
 * lease. Several instances live on PostgreSQL (vitest.config.ts: `*.pg.test.ts`).
 */

/**
 * The harness's store, with its reads held at a gate while one is closed: the mail job reading the
 * permit's PDF is then under way (nothing else of these tests reads a file on the harness's instance).
 */
const held = heldStore('get');

let h: Harness;
let operator: string;
let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
let smtpEnv: Record<string, string>;
const mails: { to: string[] }[] = [];
beforeAll(async () => {
  smtp = await smtpReceiver({ onMail: (to) => mails.push({ to }) });
  // SMTP_RETRY_SECONDS: pg-boss retries a job whose lease lapsed after the kind's retry delay,
  // which for the mail is SMTP's (30 s by default, issue 38 row 6): the takeover below waits 1–2 s.
  smtpEnv = {
    ...INSTANCES_ENV,
    ...smtp.env,
    SMTP_RETRY_SECONDS: '1',
  };
  h = await createHarness({ env: smtpEnv, storage: held.storage });
  held.attach(h);
  await seedDemoDeclarations(h.db, new Date());
  operator = await h.login('operator');
  await h.db.updateTable('export_nominations').set({ receive_email: 'docs@demo.example' }).execute();
});
afterAll(() => smtp?.close());

const orderId = async (orderNo: string) =>
  (await h.db.selectFrom('orders').select('id').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).id;
async function uploadPermit(app: FastifyInstance, id: number) {
  const m = multipart({ orderId: String(id) }, { name: 'permit.pdf', data: TINY_PDF });
  const res = await app.inject({
    method: 'POST',
    url: '/api/exportDeclaration/uploadPermit',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${operator}`, 'accept-language': 'en' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.mail).toBe('queued');
}
async function permit(app: FastifyInstance, orderNo: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/exportDeclarations',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operator}`, 'accept-language': 'en' },
    payload: JSON.stringify({ offset: 0, limit: 10, orderNos: orderNo }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.list[0].permit as { emailedAt: string | null; emailError: string | null };
}
const settled = (p: { emailedAt: string | null; emailError: string | null }) => !!(p.emailedAt || p.emailError);

describe('permit e-mails on the job queue, two instances on one PostgreSQL', () => {
  it('a permit uploaded to a web instance is e-mailed by the worker, its result read from either', async () => {
    const web: Instance = await secondInstance(h, { env: { ...smtpEnv, SERVER_ROLE: 'web' } });
    const g = held.closeGate();
    mails.length = 0;
    await uploadPermit(web.app, await orderId('DMX100001'));
    await waitFor('the worker to take the mail', () => g.reached);
    expect(await permit(web.app, 'DMX100001')).toMatchObject({ emailedAt: null, emailError: null });
    expect(mails).toHaveLength(0);
    g.open();
    await waitFor('the mail to be sent', async () => settled(await permit(web.app, 'DMX100001')));
    expect((await permit(web.app, 'DMX100001')).emailedAt).not.toBeNull();
    expect(await permit(h.app, 'DMX100001')).toEqual(await permit(web.app, 'DMX100001'));
    expect(mails).toEqual([{ to: ['docs@demo.example'] }]);
  }, 60_000);

  // Last in the file: the harness's instance "dies" here.
  it('a mail whose instance died before sending is sent by another, exactly once, after the lease', async () => {
    const g = held.closeGate();
    mails.length = 0;
    await uploadPermit(h.app, await orderId('D2X100001'));
    await waitFor('the mail job to start', () => g.reached);
    const other = await secondInstance(h, { env: smtpEnv });
    // Past its lease and a heartbeat check after it: the owner's heartbeat kept the job its own.
    expect(await leaseOutlived(other.db, 'export-permit-mail')).toEqual({ state: 'active', retryCount: 0 });
    expect(await permit(other.app, 'D2X100001')).toMatchObject({ emailedAt: null, emailError: null });
    // Its connections go at once, as a killed process's; its job stays claimed until the lease lapses.
    await h.app.jobs.abandon();
    await waitFor('the other instance to send it', async () => settled(await permit(other.app, 'D2X100001')), 40_000);
    await settledJobs(other.db, 'export-permit-mail', 1); // every row of the job's kind done or failed: no run of it is still to come
    expect((await permit(other.app, 'D2X100001')).emailError).toBeNull();
    expect(mails).toHaveLength(1);
  }, 90_000);
});
