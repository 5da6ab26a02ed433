import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpFailure } from '../../src/modules/export-declarations/export-declarations.mailer.ts';
import { seedDemoDeclarations } from '../../src/seed/export-declarations.ts';
import { createHarness, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { smtpReceiver, uploadPermitTo } from '../support/smtp.ts';

/**
 * Issue 38 row 6: an SMTP hiccup while sending a permit's e-mail was final ("could not be
 * e-mailed") although the next try would have gone through. A real SMTP server in this process
 * answers as told per recipient: first a transient 451 (greylisting) then acceptance, or a
 * permanent 550. Asserted on what was recorded: the mails the server accepted, the permit's row
 * and the queue's own record of the job (its runs), on both engines.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
let h: Harness;
let operator: string;
let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
const accepted: string[] = [];
/** What the server answers to RCPT TO for an address, each time, in turn; then it accepts. */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  smtp = await smtpReceiver({
    onRcptTo(address, _session, callback) {
      const code = answers.get(address.address)?.shift();
      if (!code) return callback();
      callback(
        Object.assign(new Error(code < 500 ? 'Greylisted, try again later' : 'No such mailbox'), {
          responseCode: code,
        }),
      );
    },
    onMail: (to) => accepted.push(...to),
  });
  h = await createHarness({
    env: {
      ...smtp.env,
      // Retried after 1–2 s: the test's wait, not production's 30 s.
      SMTP_RETRIES: '3',
      SMTP_RETRY_SECONDS: '1',
      JOB_POLL_SECONDS: '0.5',
    },
  });
  await seedDemoDeclarations(h.db, new Date());
  operator = await h.login('operator');
});
afterAll(() => smtp?.close());

/** Uploads a permit for the order, whose nomination receives at `to`; the order's id. */
async function uploadPermit(orderNo: string, to: string) {
  const { orderId, res } = await uploadPermitTo(h, operator, orderNo, to);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.mail).toBe('queued');
  return orderId;
}

/** The permit's recorded mail result. */
const permitRow = (orderId: number) =>
  h.db
    .selectFrom('export_declarations')
    .select(['permit_emailed_at', 'permit_email_error', 'permit_file_id'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();

/** The mail job's runs and whether it has ended, from the queue's own table. */
async function mailJob(orderId: number, fileId: number): Promise<{ runs: number; ended: boolean }> {
  const key = `${orderId}:${fileId}`;
  if (pg) {
    const r = await sql<{ state: string; retry_count: number }>`
      select state, retry_count from pgboss.job where name = 'export-permit-mail' and singleton_key = ${key}`.execute(
      h.db,
    );
    const row = r.rows[0]!;
    return { runs: row.retry_count + 1, ended: ['completed', 'failed', 'cancelled'].includes(row.state) };
  }
  const row = await h.db
    .selectFrom('job_queue')
    .select(['state', 'attempts'])
    .where('kind', '=', 'export-permit-mail')
    .where('singleton_key', '=', key)
    .executeTakeFirstOrThrow();
  return { runs: row.attempts, ended: ['done', 'failed'].includes(row.state) };
}

async function settled(orderId: number) {
  await waitFor(
    'the permit mail to settle',
    async () => {
      const r = await permitRow(orderId);
      return !!(r.permit_emailed_at || r.permit_email_error);
    },
    30_000,
  );
  const row = await permitRow(orderId);
  await waitFor('the mail job to end', async () => (await mailJob(orderId, row.permit_file_id!)).ended, 10_000);
  return { row, job: await mailJob(orderId, row.permit_file_id!) };
}

describe('a permit e-mail meets a transient SMTP failure', () => {
  it('a 451 reply (greylisting) twice, then acceptance: sent once, on the third run, with no error shown', async () => {
    const to = 'grey@demo.example';
    answers.set(to, [451, 451]);
    accepted.length = 0;
    const id = await uploadPermit('DMX100001', to);
    const { row, job } = await settled(id);
    expect(row.permit_email_error).toBeNull();
    expect(row.permit_emailed_at).not.toBeNull();
    expect(accepted).toEqual([to]);
    expect(job.runs).toBe(3);
  }, 60_000);

  it('a 550 reply is final at once: not tried again, refused with its own reason', async () => {
    const to = 'nobody@demo.example';
    answers.set(to, [550, 550, 550, 550, 550]);
    accepted.length = 0;
    const id = await uploadPermit('D2X100001', to);
    const { row, job } = await settled(id);
    expect(row.permit_emailed_at).toBeNull();
    expect(row.permit_email_error).toBe('declMailRefused');
    expect(job.runs).toBe(1);
    expect(answers.get(to)).toHaveLength(4); // asked once
    expect(accepted).toEqual([]);
    const list = await h.post('exportDeclarations', { offset: 0, limit: 10, orderNos: 'D2X100001' }, operator, {
      'accept-language': 'en',
    });
    expect(list.body.data.list[0].permit.emailError).toMatch(
      /^The mail server refused the permit e-mail; it is not sent again\. Check the receiving address \(reference [0-9a-f-]{36}\)\.$/,
    );
  }, 60_000);
});

describe('which SMTP failures are transient', () => {
  const err = (o: object) => Object.assign(new Error('x'), o);
  it('4xx replies and broken connections are tried again; 5xx replies and settings are not', () => {
    expect(smtpFailure(err({ code: 'EENVELOPE', responseCode: 451 }))).toBe('transient');
    expect(smtpFailure(err({ code: 'EPROTOCOL', responseCode: 421 }))).toBe('transient');
    expect(smtpFailure(err({ code: 'ECONNECTION' }))).toBe('transient');
    expect(smtpFailure(err({ code: 'ESOCKET', originalCode: 'ECONNREFUSED' }))).toBe('transient');
    expect(smtpFailure(err({ code: 'ETIMEDOUT' }))).toBe('transient');
    expect(smtpFailure(err({ code: 'ECONNRESET' }))).toBe('transient');
    expect(smtpFailure(err({ code: 'EENVELOPE', responseCode: 550 }))).toBe('permanent');
    expect(smtpFailure(err({ code: 'EMESSAGE', responseCode: 554 }))).toBe('permanent');
    expect(smtpFailure(err({ code: 'EAUTH', responseCode: 535 }))).toBe('permanent');
    expect(smtpFailure(err({ code: 'EAUTH' }))).toBe('permanent');
    expect(smtpFailure(err({ code: 'ETLS' }))).toBe('permanent');
    expect(smtpFailure(new Error('anything else'))).toBe('permanent');
    expect(smtpFailure('a string')).toBe('permanent');
  });
});
