import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Registrar } from './http/register-call.ts';
import { createV1Registrar, type V1Registrar } from './http/register-v1.ts';
import { openApiV1Document, V1_OPENAPI_PATH } from './http/openapi-v1.ts';
import type { CataloguedQueue } from './lib/job-catalogue.ts';
import { runsJobs } from './lib/jobs.shared.ts';
import { secretBox } from './lib/secret-box.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { createApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { createApiKeyAuth } from './modules/api-keys/api-keys.auth.ts';
import { createIdempotency } from './modules/api-keys/idempotency.ts';
import type { BatchesService } from './modules/batches/batches.service.ts';
import { batchesV1Routes } from './modules/batches/batches.v1.routes.ts';
import type { InterceptionsService } from './modules/interceptions/interceptions.service.ts';
import type { OrdersService } from './modules/orders/orders.service.ts';
import { ordersV1Routes } from './modules/orders/orders.v1.routes.ts';
import { ordersV1BatchRoutes } from './modules/orders/orders.v1-batch.routes.ts';
import { ordersV1ActionRoutes } from './modules/orders/orders.v1-actions.routes.ts';
import { defineWebhookJobs, deliveryLane } from './modules/webhooks/webhooks.delivery.ts';
import { createWebhooksService } from './modules/webhooks/webhooks.service.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';
import { webhooksV1Routes } from './modules/webhooks/webhooks.v1.routes.ts';

export interface V1DoorDeps {
  config: Config;
  db: Database;
  clock: () => Date;
  jobs: CataloguedQueue;
  /** The server's secret key: webhook signing secrets are sealed with it at rest. */
  secretKey: Buffer;
  version: string;
  orders: OrdersService;
  batches: BatchesService;
  interceptions: InterceptionsService;
}

/**
 * The door customers' own systems use (issue 39), a part of the app (app.ts) of its own: the
 * console's calls that manage API keys and webhook endpoints, the v1 API with its key auth, rate
 * limit and idempotency, the webhooks' relay and deliveries on the job queue, and the v1 document.
 * Answers the v1 registrar, for the modules mounted later (labels) to add their v1 calls.
 */
export function mountV1Door(app: FastifyInstance, registrar: Registrar, d: V1DoorDeps): V1Registrar {
  const { config, db, clock, jobs } = d;
  // Keys are made in the console; the v1 calls have their own registrar.
  apiKeysRoutes(registrar, createApiKeysService({ db, clock }));
  const idempotency = createIdempotency({ db, clock });
  const v1 = createV1Registrar(app, {
    auth: createApiKeyAuth({ db, clock, perMinute: config.API_RATE_LIMIT_PER_MINUTE }),
    idempotency,
  });
  ordersV1Routes(v1, db, d.orders);
  ordersV1BatchRoutes(v1, d.orders);
  ordersV1ActionRoutes(v1, db, d.orders, (...a) => d.interceptions.create(...a));
  batchesV1Routes(v1, d.batches);
  // Webhooks (issue 39 item 4): endpoints on v1 and in the console, the outbox's relay and
  // deliveries on the job queue.
  const webhooks = createWebhooksService({
    db,
    clock,
    box: secretBox(d.secretKey),
    jobs,
    allowHttp: config.WEBHOOK_ALLOW_HTTP,
  });
  webhooksV1Routes(v1, webhooks);
  webhooksRoutes(registrar, webhooks);
  const relay = defineWebhookJobs({
    db,
    clock,
    box: secretBox(d.secretKey),
    jobs,
    allowedHosts: config.WEBHOOK_ALLOWED_HOSTS,
    allowHttp: config.WEBHOOK_ALLOW_HTTP,
    retryDelaySeconds: config.WEBHOOK_RETRY_DELAY_SECONDS,
    relaySeconds: config.WEBHOOK_RELAY_SECONDS,
    lane: deliveryLane(config, config.database),
    wakeOnCommit: runsJobs(config),
    log: app.log,
  });
  app.addHook('onClose', () => relay.stop());
  // The v1 document, built once: public, like the console's.
  const v1Document = openApiV1Document(d.version);
  app.get(V1_OPENAPI_PATH, async () => v1Document);
  // Stored v1 answers are replayed for 24 h, then swept.
  jobs.every(
    { name: 'idempotency-sweep', run: async () => void (await idempotency.sweep()) },
    { everyMs: 3_600_000, atStart: false },
  );
  return v1;
}
