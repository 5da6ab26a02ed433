import { randomBytes } from 'node:crypto';
import { ErrorCode, v1 } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { newEventId } from '../../domain/order-events.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';

/** The old secret still signs for this long after a rotation. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;
export const DELIVER_KIND = 'webhook-deliver';
/** The secret's additional authenticated data (lib/secret-box.ts): a sealed value cannot move columns. */
export const SECRET_PURPOSE = 'webhookSecret';

/** `whsec_` + 32 random bytes base64: the Standard Webhooks secret format. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The rule of the current settings an endpoint's URL breaks, or null: only https unless
 * WEBHOOK_ALLOW_HTTP (an event carries the order's address and phone). Checked on create and
 * edit, and again before each delivery: an endpoint saved before the check keeps its URL, but
 * nothing is sent to it until the URL is fixed (docs/decisions/2026-12-07-webhook-urls.md).
 */
export function urlProblem(url: string, allowHttp: boolean): 'webhookUrlHttps' | null {
  return !allowHttp && new URL(url).protocol !== 'https:' ? 'webhookUrlHttps' : null;
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof createWebhooksRepository>['endpoint']>>>;
const present = (r: Row, allowHttp: boolean): v1.WebhookEndpoint => ({
  id: r.id,
  customerId: r.customer_id,
  url: r.url,
  description: r.description,
  eventTypes: JSON.parse(r.event_types),
  active: r.active === 1,
  disabledAt: r.disabled_at,
  failingSince: r.failing_since,
  urlProblem: urlProblem(r.url, allowHttp),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

interface Who extends AuditWho {
  actor: Actor;
}

/** A customer's (or an agent's customers') webhook endpoints and deliveries (issue 39 item 4). */
export function createWebhooksService({
  db,
  clock,
  box,
  jobs,
  allowHttp = false,
}: {
  db: Database;
  clock: () => Date;
  box: SecretBox;
  jobs: JobQueue;
  /** WEBHOOK_ALLOW_HTTP: plain http endpoints taken (the contract has checked the rest of the URL). */
  allowHttp?: boolean;
}) {
  const repo = createWebhooksRepository(db);
  const now = () => clock().toISOString();
  /** Whose endpoints and deliveries a caller reads: the admin (scope: all) every customer's. */
  const customersOf = (scope: Scope): readonly number[] | 'all' => (scope.all ? 'all' : scope.customerIds);
  /**
   * An endpoint is its customer's integration: the admin reads every one and may disable one or
   * resend a delivery (audited), never make, edit, rotate (a secret it would see), test or delete one
   * (docs/decisions/2026-12-07-admin-webhooks.md).
   */
  const notForAdmin = (scope: Scope) => {
    if (scope.all) throw AppError.forbidden('webhookAdminReadOnly');
  };

  function checkUrl(url: string | undefined) {
    const problem = url === undefined ? null : urlProblem(url, allowHttp);
    if (problem) throw AppError.field('url', problem);
  }
  const show = (r: Row) => present(r, allowHttp);

  async function mine(scope: Scope, id: number): Promise<Row> {
    const [row] = await repo.endpoints(customersOf(scope), id);
    // Another tenant's endpoint is as unknown as a missing one.
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
    return row;
  }

  /** A test event: no order, to one endpoint, delivered like any other. */
  async function sendTest(scope: Scope, endpointId: number) {
    notForAdmin(scope);
    const endpoint = await mine(scope, endpointId);
    const id = newEventId();
    const at = now();
    const payload = JSON.stringify({ id, type: v1.TEST_EVENT_TYPE, timestamp: at, sequence: 0, data: {} });
    const deliveryId = await db.transaction().execute(async (trx) => {
      await repo.insertEvent(trx, {
        id,
        customer_id: endpoint.customer_id,
        order_id: null,
        seq: null,
        type: v1.TEST_EVENT_TYPE,
        payload,
        occurred_at: at,
        dispatched_at: at,
      });
      const [d] = await repo.insertDeliveries(trx, [
        {
          event_id: id,
          endpoint_id: endpoint.id,
          customer_id: endpoint.customer_id,
          status: 'pending',
          created_at: at,
        },
      ]);
      await jobs.enqueue(DELIVER_KIND, { deliveryId: d!.id }, { trx, customerId: endpoint.customer_id });
      return d!.id;
    });
    jobs.wake(DELIVER_KIND);
    return { eventId: id, deliveryId };
  }

  return {
    async list(scope: Scope, customerId?: number) {
      const mineAll = customersOf(scope);
      const ids =
        mineAll === 'all'
          ? customerId === undefined
            ? 'all'
            : [customerId]
          : mineAll.filter((c) => customerId === undefined || c === customerId);
      return { list: (await repo.endpoints(ids)).map(show) };
    },
    get: async (scope: Scope, id: number) => show(await mine(scope, id)),

    async create(who: Who, scope: Scope, input: v1.V1Body<typeof v1.createWebhookEndpoint>) {
      notForAdmin(scope);
      checkUrl(input.url);
      const customers = scope.all ? [] : scope.customerIds;
      // A customer's key acts for its customer; an agent's key names one of its customers.
      const customerId = input.customerId ?? (customers.length === 1 ? customers[0] : undefined);
      if (customerId === undefined) throw AppError.field('customerId', 'customerRequired');
      if (!customers.includes(customerId)) throw AppError.field('customerId', 'customerOutOfScope');
      const secret = newSecret();
      const at = now();
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insertEndpoint(trx, {
          customer_id: customerId,
          url: input.url,
          description: input.description,
          event_types: JSON.stringify([...new Set(input.eventTypes)]),
          active: input.active ? 1 : 0,
          secret_sealed: box.seal(secret, SECRET_PURPOSE),
          created_by: who.actor.userId,
          created_at: at,
          updated_at: at,
        });
        // Never the secret.
        await audit(trx, who, {
          action: 'webhookEndpoint.create',
          target: `webhookEndpoint:${id}`,
          detail: { url: input.url, eventTypes: input.eventTypes, active: input.active, customerId },
        });
        return id;
      });
      return { ...show((await repo.endpoint(id))!), secret };
    },

    async update(who: Who, scope: Scope, id: number, input: v1.V1Body<typeof v1.updateWebhookEndpoint>) {
      // The admin's one change: turning an endpoint off (abuse, a target that must stop getting data).
      if (scope.all && !(input.active === false && Object.keys(input).length === 1)) notForAdmin(scope);
      checkUrl(input.url);
      const before = await mine(scope, id);
      await db.transaction().execute(async (trx) => {
        const reactivated = input.active === true && before.active === 0;
        await repo.updateEndpoint(trx, id, {
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.eventTypes !== undefined ? { event_types: JSON.stringify([...new Set(input.eventTypes)]) } : {}),
          ...(input.active !== undefined ? { active: input.active ? 1 : 0 } : {}),
          // Turned on again by its owner: a fresh start, not the old run of failures.
          ...(reactivated ? { failing_since: null, disabled_at: null } : {}),
          updated_at: now(),
        });
        if (input.active === false) await repo.cancelPending(trx, id);
        await audit(trx, who, { action: 'webhookEndpoint.update', target: `webhookEndpoint:${id}`, detail: input });
      });
      return show((await repo.endpoint(id))!);
    },

    async remove(who: Who, scope: Scope, id: number) {
      notForAdmin(scope);
      await mine(scope, id);
      await db.transaction().execute(async (trx) => {
        await repo.updateEndpoint(trx, id, { deleted_at: now(), active: 0, updated_at: now() });
        await repo.cancelPending(trx, id);
        await audit(trx, who, { action: 'webhookEndpoint.delete', target: `webhookEndpoint:${id}` });
      });
      return null;
    },

    async rotate(who: Who, scope: Scope, id: number) {
      notForAdmin(scope);
      const before = await mine(scope, id);
      const secret = newSecret();
      const at = clock();
      const until = new Date(at.getTime() + PREVIOUS_SECRET_MS).toISOString();
      await db.transaction().execute(async (trx) => {
        await repo.updateEndpoint(trx, id, {
          secret_sealed: box.seal(secret, SECRET_PURPOSE),
          previous_secret_sealed: before.secret_sealed,
          previous_until: until,
          updated_at: at.toISOString(),
        });
        await audit(trx, who, {
          action: 'webhookEndpoint.rotateSecret',
          target: `webhookEndpoint:${id}`,
          detail: { previousValidUntil: until },
        });
      });
      return { ...show((await repo.endpoint(id))!), secret, previousValidUntil: until };
    },

    sendTest,

    async deliveries(scope: Scope, q: v1.V1Query<typeof v1.listWebhookDeliveries>) {
      const rows = await repo.deliveries(customersOf(scope), q);
      return { list: rows.map(presentDelivery) };
    },
    async delivery(scope: Scope, id: number) {
      const [row] = await repo.deliveries(customersOf(scope), { id, limit: 1 });
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      const attempts = await repo.attempts(id);
      return {
        ...presentDelivery(row),
        attemptLog: attempts.map((a) => ({
          attempt: a.attempt,
          at: a.at,
          statusCode: a.status_code,
          latencyMs: a.latency_ms,
          response: a.response_excerpt,
          error: a.error,
        })),
      };
    },
    async resend(who: Who, scope: Scope, id: number) {
      const [row] = await repo.deliveries(customersOf(scope), { id, limit: 1 });
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      const endpoint = await repo.endpoint(row.endpoint_id);
      await db.transaction().execute(async (trx) => {
        await repo.setDeliveryStatus(trx, id, 'pending');
        // Who sent an event again, and for which customer: the admin's resends above all.
        await audit(trx, who, {
          action: 'webhookDelivery.resend',
          target: `webhookDelivery:${id}`,
          detail: { eventId: row.event_id, endpointId: row.endpoint_id, customerId: endpoint!.customer_id },
        });
        // `resend`: its job sends even if a try already out records `succeeded` before it starts.
        await jobs.enqueue(DELIVER_KIND, { deliveryId: id, resend: true }, { trx, customerId: endpoint!.customer_id });
      });
      jobs.wake(DELIVER_KIND);
      return null;
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;

function presentDelivery(r: {
  id: number;
  endpoint_id: number;
  customer_id: number;
  event_id: string;
  type: string;
  order_id: number | null;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_attempt_at: string | null;
  created_at: string;
}) {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    customerId: r.customer_id,
    eventId: r.event_id,
    eventType: r.type,
    orderId: r.order_id,
    status: r.status as 'pending',
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastAttemptAt: r.last_attempt_at,
    createdAt: r.created_at,
  };
}
