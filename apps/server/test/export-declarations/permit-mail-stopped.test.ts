import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoDeclarations } from '../../src/seed/export-declarations.ts';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { smtpReceiver, uploadPermitTo } from '../support/smtp.ts';
import { stopTooOften } from '../support/stopped.ts';
import { INSTANCES_ENV } from '../support/two-instances.ts';

/**
 * Issue 38, the permit e-mail's side of "kinds without gaveUp": a mail job whose runs keep being
 * cut short (its server restarts each time) was given up on by the queue while the permit, which
 * its operator watches in the declarations list, said "not yet sent" for good. Now the permit says
 * the sending was interrupted (and may have gone out), in the reader's language. Both engines
 * (support/stopped.ts); the run is held under way by a real SMTP server that does not answer the
 * recipient until the test lets it.
 */
let h: Harness;
let operator: string;
let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
const accepted: string[] = [];
const gate = { reached: false, open: () => {} };
const opened = new Promise<void>((r) => (gate.open = r));

beforeAll(async () => {
  smtp = await smtpReceiver({
    onRcptTo(_address, _session, callback) {
      gate.reached = true;
      void opened.then(() => callback());
    },
    onMail: (to) => accepted.push(...to),
  });
  h = await createHarness({ env: { ...INSTANCES_ENV, ...smtp.env } });
  await seedDemoDeclarations(h.db, new Date());
  operator = await h.login('operator');
});
afterAll(async () => {
  gate.open();
  await smtp?.close();
});

const permitOf = async (orderNo: string, lang: string) => {
  const list = await h.post('exportDeclarations', { offset: 0, limit: 10, orderNos: orderNo }, operator, {
    'accept-language': lang,
  });
  return list.body.data.list[0].permit as { emailedAt: string | null; emailError: string | null };
};

it('a permit mail stopped too often says so on the permit, in both languages; a result written later wins', async () => {
  const to = 'held@demo.example';
  const { res } = await uploadPermitTo(h, operator, 'DMX100001', to);
  expect(res.statusCode, res.body).toBe(200);
  await waitFor('the mail under way', () => gate.reached, 20_000);

  const heldRunEnded = await stopTooOften(h, 'export-permit-mail');
  await waitFor('the permit told', async () => (await permitOf('DMX100001', 'en')).emailError !== null, 30_000);
  expect((await permitOf('DMX100001', 'en')).emailError).toMatch(
    /^Sending the permit e-mail was interrupted too many times .* it may or may not have reached the recipient\./,
  );
  expect((await permitOf('DMX100001', 'zh-CN')).emailError).toMatch(/^许可证邮件的发送多次被中断/);
  expect((await permitOf('DMX100001', 'en')).emailedAt).toBeNull();

  // The held run, let go, hands the mail over: that it was sent is the truth, and is what stays.
  gate.open();
  await heldRunEnded();
  expect(accepted).toEqual([to]);
  const after = await permitOf('DMX100001', 'en');
  expect(after.emailedAt).not.toBeNull();
  expect(after.emailError).toBeNull();
}, 90_000);
