import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { JobContext, JobQueue } from '../../lib/jobs.ts';
import { translate } from '../../lib/messages.ts';
import type { Files } from '../../lib/files.ts';
import { type PermitMailer, smtpFailure } from './export-declarations.mailer.ts';
import type { DeclarationsRepository } from './export-declarations.repository.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

/** The queue's kind of a permit's e-mail (lib/jobs.ts). */
const MAIL_JOB = 'export-permit-mail';
type MailPayload = JobPayload<'export-permit-mail'>;

/**
 * The permit's e-mail on the job queue (issue 27): a slow or unreachable mail server held the
 * upload's call. Enqueued in the transaction that links the permit; a worker sends it and writes
 * the result, guarded by the permit it was for (a permit replaced meanwhile is the new job's to
 * send). A failure stores a message key and an id to quote (the server's text goes to the log
 * only), translated when read.
 *
 * A transient SMTP failure (a 4xx reply such as greylisting, a refused, reset or timed-out
 * connection: mailer.ts smtpFailure) is tried again by the queue, with backoff (`mailRetry`:
 * SMTP_RETRIES after SMTP_RETRY_SECONDS, doubled each time), and the permit shows no error
 * meanwhile; once the tries are used up it is `declMailFailed` (issue 38 row 6: one hiccup was
 * final). A 5xx reply is final at once, `declMailRefused`: the same mail would be refused again.
 *
 * A job the queue gives up on (its runs kept being cut short) leaves `declMailStopped` on the
 * permit, unless a result was written meanwhile.
 *
 * At least once, not exactly once: mail is not transactional. An instance dying between the send
 * and the write makes the taken-over run send again, and so does a retry after a connection lost
 * or timed out once the server had the whole message (its reply to it never came).
 */
export function createPermitMails(deps: {
  db: Database;
  clock: () => Date;
  files: Files;
  jobs: JobQueue;
  mailer: PermitMailer | null;
  mailRetry?: { limit: number; delaySeconds: number };
  repo: DeclarationsRepository;
  logError?: (err: unknown, context: { orderId: number; errorId: string }) => void;
}) {
  const { files, mailer, repo } = deps;
  const now = () => deps.clock().toISOString();

  async function mailJob({ orderId, fileId, lang }: MailPayload, ctx: JobContext) {
    const r = await repo.findAny(orderId);
    // Cleared, replaced by a newer permit, or sent by an earlier run.
    if (!mailer || !r || r.permit_file_id !== fileId || r.permit_emailed_at) return;
    // The address was removed after the upload: said on the permit rather than "not yet sent".
    if (!r.receive_email) return repo.setMailResult(orderId, fileId, null, { key: 'declMailNoAddress', errorId: null });
    const f = await repo.permitFile(fileId);
    if (!f) return;
    try {
      await mailer.send({
        to: r.receive_email,
        subject: translate(lang, 'declMailSubject', { orderNo: r.order_no }),
        text: translate(lang, 'declMailBody', { orderNo: r.order_no, waybillNo: r.waybill_no ?? '-' }),
        filename: f.name,
        pdf: await files.read(f.storage_key),
      });
      await repo.setMailResult(orderId, fileId, now(), null);
    } catch (e) {
      const kind = smtpFailure(e);
      // Thrown back to the queue, which runs the job again after its backoff.
      if (kind === 'transient' && ctx.runsAgainAfter(e)) throw e;
      const errorId = randomUUID();
      deps.logError?.(e, { orderId, errorId });
      const key = kind === 'permanent' ? 'declMailRefused' : 'declMailFailed';
      await repo.setMailResult(orderId, fileId, null, { key, errorId });
    }
  }
  const retry = deps.mailRetry?.limit ? deps.mailRetry : undefined;
  deps.jobs.define<MailPayload>({
    name: MAIL_JOB,
    exclusive: true,
    retry,
    run: (p, ctx) => mailJob(p, ctx),
    // The permit's row is what its operator watches: given up on, it says so instead of "not yet
    // sent" for good. Not "failed": the last cut-short run may have handed the mail over.
    gaveUp: ({ orderId, fileId }) => repo.mailGaveUp(orderId, fileId, 'declMailStopped'),
  });

  return {
    /** In the permit's transaction: the mail is sent by a worker once the permit is committed. */
    enqueue: (trx: Database, p: MailPayload, customerId: number) =>
      deps.jobs.enqueue<MailPayload>(MAIL_JOB, p, {
        trx,
        customerId,
        size: 'small',
        singletonKey: `${p.orderId}:${p.fileId}`,
      }),
  };
}
