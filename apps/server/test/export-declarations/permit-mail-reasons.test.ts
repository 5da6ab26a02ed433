import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoDeclarations } from '../../src/seed/export-declarations.ts';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { smtpReceiver, uploadPermitTo } from '../support/smtp.ts';

/**
 * Issue 38, the console's side: every failed permit mail showed the same "Mail failed" tag. The
 * list now answers why as a key the console words (`emailErrorKey`, with `emailErrorId` to quote)
 * beside the worded `emailError`: refused, failed after its tries, stopped (may have arrived), or
 * no receiving address. Text stored before the mail was a job (the mail server's own exception
 * text, issue 27) never reaches a reader: it reads as a failed mail. Both engines.
 */
let h: Harness;
let operator: string;
let smtp: Awaited<ReturnType<typeof smtpReceiver>>;

beforeAll(async () => {
  smtp = await smtpReceiver({ onMail: () => {} });
  h = await createHarness({ env: smtp.env });
  await seedDemoDeclarations(h.db, new Date());
  operator = await h.login('operator');
});
afterAll(() => smtp?.close());

type Permit = {
  emailedAt: string | null;
  emailError: string | null;
  emailErrorKey: string | null;
  emailErrorId: string | null;
};
const permitOf = async (orderNo: string, lang = 'en') => {
  const list = await h.post('exportDeclarations', { offset: 0, limit: 10, orderNos: orderNo }, operator, {
    'accept-language': lang,
  });
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return list.body.data.list[0].permit as Permit;
};
const orderId = async (orderNo: string) =>
  (await h.db.selectFrom('orders').select('id').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).id;
const store = async (orderNo: string, error: string | null, errorId: string | null) =>
  h.db
    .updateTable('export_declarations')
    .set({ permit_emailed_at: null, permit_email_error: error, permit_email_error_id: errorId })
    .where('order_id', '=', await orderId(orderNo))
    .execute();

it('a permit uploaded for a nomination with no receiving address says so, with the key and in both languages', async () => {
  const { res } = await uploadPermitTo(h, operator, 'DMX100001', '');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.mail).toBe('noAddress');
  const en = await permitOf('DMX100001');
  expect(en).toMatchObject({ emailedAt: null, emailErrorKey: 'declMailNoAddress', emailErrorId: null });
  expect(en.emailError).toMatch(/no receiving e-mail address/);
  expect((await permitOf('DMX100001', 'zh-CN')).emailError).toMatch(/未设置接收邮箱/);
});

it('each stored reason is answered as its key and id beside the worded text', async () => {
  // No address: no mail job runs meanwhile to write its own result over the stored ones.
  const { res } = await uploadPermitTo(h, operator, 'D2X100001', '');
  expect(res.statusCode, res.body).toBe(200);
  const id = '0b7c2f0e-1111-4222-8333-444455556666';
  await store('D2X100001', 'declMailRefused', id);
  expect(await permitOf('D2X100001')).toMatchObject({ emailErrorKey: 'declMailRefused', emailErrorId: id });
  await store('D2X100001', 'declMailFailed', id);
  expect(await permitOf('D2X100001')).toMatchObject({ emailErrorKey: 'declMailFailed', emailErrorId: id });
  await store('D2X100001', 'declMailStopped', null);
  const stopped = await permitOf('D2X100001');
  expect(stopped).toMatchObject({ emailErrorKey: 'declMailStopped', emailErrorId: null });
  expect(stopped.emailError).toMatch(/may or may not have reached the recipient/);
  await store('D2X100001', null, null);
  expect(await permitOf('D2X100001')).toMatchObject({ emailErrorKey: null, emailErrorId: null, emailError: null });
});

it("text stored before the mail was a job (the mail server's exception) never reaches a reader: it reads as a failed mail", async () => {
  await store('D2X100001', 'Invalid login: 535 5.7.8 auth failed for permits@smtp.internal:587', null);
  for (const [lang, text] of [
    ['en', /^The permit could not be e-mailed/],
    ['zh-CN', /^许可证邮件发送失败/],
  ] as const) {
    const p = await permitOf('D2X100001', lang);
    expect(p).toMatchObject({ emailErrorKey: 'declMailFailed', emailErrorId: null });
    expect(p.emailError).toMatch(text);
    expect(JSON.stringify(p)).not.toMatch(/535|smtp\.internal|Invalid login/);
  }
});

// Last in the file: the harness's job runner is stopped here.
it('a mail job that finds the address removed since the upload says so instead of "not yet sent"', async () => {
  // The upload's job waits for a runner: the address goes before any runs it.
  await h.app.jobs.stop();
  const { res } = await uploadPermitTo(h, operator, 'DMX100001', 'docs@demo.example');
  expect(res.json().data.mail).toBe('queued');
  expect(await permitOf('DMX100001')).toMatchObject({ emailErrorKey: null, emailedAt: null });
  const o = await h.db
    .selectFrom('orders')
    .select('export_nomination_id')
    .where('order_no', '=', 'DMX100001')
    .executeTakeFirstOrThrow();
  await h.db
    .updateTable('export_nominations')
    .set({ receive_email: '' })
    .where('id', '=', o.export_nomination_id!)
    .execute();
  await h.restarted();
  await waitFor('the job to run', async () => (await permitOf('DMX100001')).emailErrorKey !== null, 30_000);
  expect(await permitOf('DMX100001')).toMatchObject({
    emailedAt: null,
    emailErrorKey: 'declMailNoAddress',
    emailErrorId: null,
  });
}, 60_000);
