import { v1 } from '@console/contract';
import { Webhook } from 'standardwebhooks';
import { onCommitted } from '../../db/commit-signal.ts';
import type { Database } from '../../db/database.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { noticeForUser } from '../notifications/index.ts';
import { sendWebhook } from './webhooks.outbound.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';
import { DELIVER_KIND, SECRET_PURPOSE, urlProblem } from './webhooks.service.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

/** An endpoint failing without a success for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;
/** Retries of one delivery: with WEBHOOK_RETRY_DELAY_SECONDS 45, about 2 to 4 days of them. */
export const RETRIES = 12;
/** Events the relay turns into deliveries per transaction. */
const RELAY_BATCH = 500;
export const RELAY_KIND = 'webhook-relay';

/**
 * The delivery lane per instance: WEBHOOK_DELIVERY_CONCURRENCY slots, on PostgreSQL never more than
 * the instance's pool (DATABASE_POOL_SIZE): each running delivery uses one connection at a time
 * (none while it waits for the endpoint), so the lane alone never asks for more than the pool. A
 * customer's share of them: WEBHOOK_DELIVERY_PER_CUSTOMER, at most the slots.
 */
export function deliveryLane(
  settings: { WEBHOOK_DELIVERY_CONCURRENCY: number; WEBHOOK_DELIVERY_PER_CUSTOMER: number },
  database: { dialect: string; poolSize?: number },
): { slots: number; perTenant: number } {
  const wanted = settings.WEBHOOK_DELIVERY_CONCURRENCY;
  const slots = database.dialect === 'postgres' ? Math.max(1, Math.min(wanted, database.poolSize ?? 10)) : wanted;
  return { slots, perTenant: Math.min(settings.WEBHOOK_DELIVERY_PER_CUSTOMER, slots) };
}

/**
 * Webhook delivery on the job queue (docs/decisions/2026-12-07-webhooks.md):
 * - the relay (periodic, once a second when events wait, one at a time across instances) reads the outbox
 *   (`webhook_events` not yet dispatched), makes one delivery per subscribed active endpoint and
 *   enqueues its job in the same transaction, then marks the events dispatched: an event is
 *   never lost between the order's commit and its delivery, and never delivered twice by the relay;
 * - a delivery job signs the event's stored body per Standard Webhooks (with both secrets for 24 h
 *   after a rotation), posts it, records the attempt, and on failure throws for the queue's retry
 *   (exponential backoff). Deliveries run in a lane of their own (`JobKind.lane`, `deliveryLane`):
 *   no render or import waits for them, nor they for one; the customer is the fairness key, at most
 *   its share (WEBHOOK_DELIVERY_PER_CUSTOMER) at once per instance, so a slow endpoint holds that
 *   share and never another customer's deliveries
 *   (docs/decisions/2026-12-07-webhook-delivery-lane.md).
 */
export function defineWebhookJobs({
  db,
  clock,
  box,
  jobs,
  allowedHosts,
  allowHttp = false,
  retryDelaySeconds,
  relaySeconds = 1,
  lane,
  wakeOnCommit = false,
  log,
}: {
  db: Database;
  clock: () => Date;
  box: SecretBox;
  jobs: JobQueue;
  allowedHosts: readonly string[];
  /** WEBHOOK_ALLOW_HTTP: off, a plain http endpoint (saved before the check) is sent nothing. */
  allowHttp?: boolean;
  retryDelaySeconds: number;
  /** WEBHOOK_RELAY_SECONDS: the relay's period (the wake serves this instance's own events). */
  relaySeconds?: number;
  /** Deliveries at once per instance, and a customer's share of them (`deliveryLane`). */
  lane: { slots: number; perTenant: number };
  /** An instance that runs jobs: the relay runs as soon as this process commits an event. */
  wakeOnCommit?: boolean;
  log: { warn(obj: object, msg: string): void };
}) {
  const repo = createWebhooksRepository(db);

  async function relay(): Promise<number> {
    let total = 0;
    for (;;) {
      const events = await repo.undispatched(RELAY_BATCH);
      if (!events.length) return total;
      const at = clock().toISOString();
      const enqueued = await db.transaction().execute(async (trx) => {
        const endpoints = await repo.activeEndpoints(trx, [...new Set(events.map((e) => e.customer_id))]);
        const rows = events.flatMap((e) =>
          endpoints
            .filter((w) => w.customer_id === e.customer_id && (JSON.parse(w.event_types) as string[]).includes(e.type))
            .map((w) => ({
              event_id: e.id,
              endpoint_id: w.id,
              customer_id: w.customer_id,
              status: 'pending',
              created_at: at,
            })),
        );
        const made = [];
        for (let i = 0; i < rows.length; i += 500)
          made.push(...(await repo.insertDeliveries(trx, rows.slice(i, i + 500))));
        for (const d of made) {
          await jobs.enqueue(DELIVER_KIND, { deliveryId: d.id }, { trx, customerId: d.customer_id });
        }
        await repo.markDispatched(
          trx,
          events.map((e) => e.id),
          at,
        );
        return made.length;
      });
      if (enqueued) jobs.wake(DELIVER_KIND);
      total += events.length;
    }
  }

  /**
   * One relay at a time in this process, whoever asks (the periodic job, a commit's wake); a wake
   * during a run makes one more run after it, so an event committed while a run had already read
   * the outbox is not left for the next period. Across instances the periodic job is one at a time;
   * a wake's run beside another instance's is safe: a delivery is unique per (event, endpoint) and
   * only the relay that inserted it enqueues its job.
   */
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  function relayHere(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await relay();
        } while (again && !stopped);
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  }
  // The wake (docs/decisions/2026-12-07-webhook-wake.md): the order's writers cannot reach the queue,
  // the database's driver tells once their commit has returned (never before: the relay would not
  // see the row); the periodic job remains for other instances' events and this one's misses.
  const unsubscribe = wakeOnCommit
    ? onCommitted(db, 'webhook_events', () => {
        if (!stopped) relayHere().catch((err: unknown) => log.warn({ err }, 'webhook relay on commit failed'));
      })
    : () => {};

  async function deliver(deliveryId: number, runsAgain: () => boolean, resend = false): Promise<void> {
    const d = await repo.deliveryToSend(deliveryId);
    // A delivery's own job stops at "succeeded" (a retry that crossed a success); a resend's job does
    // not: the try that wrote it may have been out before the resend was asked, and the customer
    // asked for one more send.
    if (!d || d.status === 'cancelled' || (d.status === 'succeeded' && !resend)) return;
    if (d.deleted_at || d.active !== 1) {
      await repo.setDeliveryStatus(db, d.id, 'cancelled');
      return;
    }
    const now = clock();
    const secrets = [box.open(d.secret_sealed, SECRET_PURPOSE)];
    if (d.previous_secret_sealed && d.previous_until && Date.parse(d.previous_until) > now.getTime()) {
      secrets.push(box.open(d.previous_secret_sealed, SECRET_PURPOSE));
    }
    // Standard Webhooks: the id is the event's (the same on every retry), space-separated signatures.
    const signature = secrets.map((s) => new Webhook(s).sign(d.event_id, now, d.payload)).join(' ');
    // A URL today's rules refuse (http saved before https was required) is not sent to: the
    // attempt says which rule, a key the console words in zh and en.
    const problem = urlProblem(d.url, allowHttp);
    const result = problem
      ? { statusCode: null, latencyMs: 0, excerpt: '', error: problem }
      : await sendWebhook(
          d.url,
          d.payload,
          {
            'webhook-id': d.event_id,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': signature,
            'user-agent': 'console-webhooks/1',
          },
          { allowedHosts },
        );
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    // A refused target or URL will be refused again: no retry.
    const retry = !ok && !problem && result.error !== 'targetRefused' && runsAgain();
    const at = clock();
    await db.transaction().execute(async (trx) => {
      await repo.recordAttempt(
        trx,
        {
          delivery_id: d.id,
          at: at.toISOString(),
          status_code: result.statusCode,
          latency_ms: result.latencyMs,
          response_excerpt: result.excerpt,
          error: result.error,
        },
        { status: ok ? 'succeeded' : retry ? 'pending' : 'failed', lastStatusCode: result.statusCode },
      );
      if (ok) {
        if (d.failing_since) await repo.updateEndpoint(trx, d.endpoint_id, { failing_since: null });
        return;
      }
      const since = d.failing_since ?? at.toISOString();
      if (!d.failing_since) await repo.updateEndpoint(trx, d.endpoint_id, { failing_since: since });
      else if (at.getTime() - Date.parse(since) >= DISABLE_AFTER_MS) {
        // Three days without one success: disabled, its owner told, its waiting deliveries dropped.
        await repo.updateEndpoint(trx, d.endpoint_id, { active: 0, disabled_at: at.toISOString() });
        await repo.cancelPending(trx, d.endpoint_id);
        await noticeForUser(trx, {
          userId: d.created_by,
          at: at.toISOString(),
          title: { zh: 'Webhook 端点已停用', en: 'Webhook endpoint disabled' },
          content: {
            zh: `端点 ${d.url} 自 ${since} 起持续投递失败已满 3 天，已停用。修复后请在 API 中重新启用（active: true）。`,
            en: `Deliveries to ${d.url} have failed since ${since}, 3 days in a row: the endpoint is disabled. Fix it, then set it active again through the API.`,
          },
        });
        log.warn({ endpointId: d.endpoint_id }, 'webhook endpoint disabled after 3 days of failures');
      }
    });
    if (retry) throw new Error(`webhook delivery ${d.id}: ${result.statusCode ?? result.error}`);
  }

  jobs.define<JobPayload<'webhook-deliver'>>({
    name: DELIVER_KIND,
    retry: { limit: RETRIES, delaySeconds: retryDelaySeconds },
    // No poll of its own (JOB_POLL_SECONDS): the relay and every enqueue wake this instance's lane,
    // and its workers fetch again at once while they find work; 8 slots polling every 0.5 s would
    // cost an idle instance 16 queue reads a second.
    lane,
    run: async ({ deliveryId, resend }, ctx) =>
      deliver(deliveryId, () => ctx.runsAgainAfter(new Error('retry')), resend),
  });
  jobs.every(
    { name: RELAY_KIND, pollSeconds: 0.5, run: async () => void (await relayHere()) },
    // Only a second with events waiting writes a relay job (`due`): an idle console writes none.
    { everyMs: relaySeconds * 1000, atStart: true, due: repo.hasUndispatched },
  );
  return {
    relay,
    deliver,
    testType: v1.TEST_EVENT_TYPE,
    /** No more wakes; resolves once a relay under way has ended (before the database closes). */
    async stop() {
      stopped = true;
      unsubscribe();
      await running?.catch(() => {});
    },
  };
}
