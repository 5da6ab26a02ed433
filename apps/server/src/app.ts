import path from 'node:path';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jdAuthorize as jdContract } from '@console/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { badUrlAnswer, installErrorHandler } from './http/error-handler.ts';
import { healthRoutes } from './http/health-routes.ts';
import { loggerOptions } from './http/logging.ts';
import { registerConsole } from './http/console-static.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { openApiDocument } from './http/openapi.ts';
import { createRegistrar } from './http/register-call.ts';
import { labelsV1Routes } from './modules/labels/labels.v1.routes.ts';
import type { Storage } from './lib/storage.ts';
import { createStorage } from './lib/storage-config.ts';
import { createFiles } from './lib/files.ts';
import { useTempFolder } from './lib/temp-files.ts';
import { databaseCheck, fileStoreCheck, stoppingCheck, workerCheck } from './lib/readiness.ts';
import { mountV1Door } from './app-v1.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { ordersRoutes } from './modules/orders/orders.routes.ts';
import { createOrderChanges } from './modules/orders/orders.changes.ts';
import { orderChangesRoutes } from './modules/orders/orders.changes.routes.ts';
import { createOrdersLookup } from './modules/orders/orders.lookup.ts';
import { createIdCardsService } from './modules/id-cards/id-cards.service.ts';
import { idCardsRoutes } from './modules/id-cards/id-cards.routes.ts';
import { createOrdersService } from './modules/orders/orders.service.ts';
import { referenceRoutes } from './modules/reference/reference.routes.ts';
import { batchesRoutes } from './modules/batches/batches.routes.ts';
import { itemsRoutes } from './modules/items/items.routes.ts';
import { createItemImportService } from './modules/items/items.import.ts';
import { createItemsService } from './modules/items/items.service.ts';
import { createCatalogueLookup } from './modules/items/items.catalogue.ts';
import { createBatchesService } from './modules/batches/batches.service.ts';
import { exportJobsRoutes } from './modules/export-jobs/export-jobs.routes.ts';
import { createExportProgress } from './modules/export-jobs/export-jobs.service.ts';
import { createParsePool } from './modules/batches/parse-pool.ts';
import { createExportRenders } from './modules/export-jobs/export-jobs.renders.ts';
import { createExportDownloads } from './modules/export-jobs/export-downloads.ts';
import { renderInputKey } from './modules/export-jobs/render-inputs.ts';
import { useRenderRunner } from './lib/workbook-job.ts';
import { boundedRunner, RenderBound } from './lib/render-bound.ts';
import { meituanRoutes } from './modules/meituan/meituan.routes.ts';
import { createMeituanService } from './modules/meituan/meituan.service.ts';
import { recipientsRoutes } from './modules/recipients/recipients.routes.ts';
import { createRecipientsService } from './modules/recipients/recipients.service.ts';
import { selfSendsRoutes } from './modules/self-sends/self-sends.routes.ts';
import { createSelfSendsService, matchSelfSends } from './modules/self-sends/self-sends.service.ts';
import { smtpMailer } from './modules/export-declarations/export-declarations.mailer.ts';
import { exportDeclarationsRoutes } from './modules/export-declarations/export-declarations.routes.ts';
import { createExportDeclarationsService } from './modules/export-declarations/export-declarations.service.ts';
import { labelBRoutes } from './modules/label-b/label-b.routes.ts';
import { createLabelBService } from './modules/label-b/label-b.service.ts';
import { setFileRetentionDays } from './lib/generated-files.ts';
import { billsRoutes } from './modules/bills/bills.routes.ts';
import { createBillsService } from './modules/bills/bills.service.ts';
import { chargeRelabel } from './domain/pricing/index.ts';
import { storageAccrualJob } from './modules/bills/storage-accrual.ts';
import { type CataloguedQueue, withJobCatalogue } from './lib/job-catalogue.ts';
import { createJobQueue, runsJobs } from './lib/jobs.ts';
import { exportNominationsRoutes } from './modules/export-nominations/export-nominations.routes.ts';
import { createExportNominationsService } from './modules/export-nominations/export-nominations.service.ts';
import { interceptionsRoutes } from './modules/interceptions/interceptions.routes.ts';
import { createInterceptionsService } from './modules/interceptions/interceptions.service.ts';
import { orderReviewsRoutes } from './modules/order-reviews/order-reviews.routes.ts';
import { labelsRoutes } from './modules/labels/labels.routes.ts';
import { mdaRoutes } from './modules/mda/mda.routes.ts';
import { createMdaService } from './modules/mda/mda.service.ts';
import { createLabelsService } from './modules/labels/labels.service.ts';
import { createOrderReviewsService } from './modules/order-reviews/order-reviews.service.ts';
import { clearanceRoutes } from './modules/clearance/clearance.routes.ts';
import { createClearanceService } from './modules/clearance/clearance.service.ts';
import { clearanceWebhookRoutes } from './modules/clearance/clearance.webhook.ts';
import { pickupsRoutes } from './modules/pickups/pickups.routes.ts';
import { createPickupsService } from './modules/pickups/pickups.service.ts';
import { storageOrdersRoutes } from './modules/storage-orders/storage-orders.routes.ts';
import { createStorageOrdersService } from './modules/storage-orders/storage-orders.service.ts';
import { createJdClient } from './modules/jd-authorize/jd-client.ts';
import { jdAuthorizeRoutes } from './modules/jd-authorize/jd-authorize.routes.ts';
import { createJdAuthorizeService } from './modules/jd-authorize/jd-authorize.service.ts';
import { loadSecretKey, secretBox } from './lib/secret-box.ts';

export const VERSION = '1.21.2';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue (lib/jobs.ts) held to the job catalogue: started with the app, stopped when it closes. */
    jobs: CataloguedQueue;
    /** SIGTERM's first step (server.ts): `/api/ready` answers 503 `shuttingDown` from now on. */
    beginShutdown(): void;
  }
}

export interface AppDeps {
  config: Config;
  db: Database;
  clock?: () => Date;
  storage?: Storage;
  /** Tests only: see BatchesDeps.afterStagedChunk. */
  afterStagedChunk?: (batchId: number, written: number) => Promise<void>;
}

/** Builds the whole app without listening (server.ts listens; tests use inject). */
export async function buildApp({
  config,
  db,
  clock = () => new Date(),
  storage,
  afterStagedChunk,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    // A URL the router cannot decode answers in the envelope, as every other 400 (http/error-handler.ts).
    frameworkErrors: badUrlAnswer,
  });
  // The files module owns the rows and the bytes (issue 27): services get it, never the store.
  const files = createFiles(db, storage ?? createStorage(config, db), { quotaBytes: config.CUSTOMER_FILE_QUOTA_BYTES });
  // Files being built and sent live in DATA_DIR/tmp; what a killed run left there goes now.
  const temp = useTempFolder(path.join(config.DATA_DIR, 'tmp'));
  if (temp.removed) app.log.info({ removed: temp.removed }, 'removed temporary files left by the last run');
  app.addHook('onClose', async () => temp.release());
  // Long and periodic jobs, on one queue shared by every instance on PostgreSQL (lib/jobs.ts).
  // Held to the job catalogue (lib/job-catalogue.ts): every kind listed, its payloads checked.
  const jobs = withJobCatalogue(createJobQueue({ config, db, log: app.log }));
  app.decorate('jobs', jobs);
  // Opened first, so modules can enqueue while they start (recoveries); kinds are set up as they
  // are defined. Jobs run only once `jobs.start()` is called, after the server listens (server.ts;
  // issue 38 row 8: a job due at start held the plugins' loading past its timeout). Running jobs
  // finish before the database closes (server.ts and the tests close the app first).
  await jobs.open();
  app.addHook('onClose', () => jobs.stop());

  installSecurityHeaders(app);
  await app.register(multipart, {
    limits: { fileSize: config.UPLOAD_LIMIT_BYTES, files: 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
    throwFileSizeLimit: true,
  });
  // JSON only where JSON is expected (and multipart for uploads).
  app.removeContentTypeParser(['text/plain']);
  installErrorHandler(app);

  await app.register(swagger, { mode: 'static', specification: { document: openApiDocument(VERSION) as never } });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Liveness and readiness (the load balancer's check); SIGTERM's first step makes it answer 503.
  let stopping = false;
  app.decorate('beginShutdown', () => void (stopping = true));
  healthRoutes(app, VERSION, [
    stoppingCheck(() => stopping),
    databaseCheck(db),
    fileStoreCheck(files, config.DATA_DIR),
    // A web instance is ready only while some worker runs its jobs (SERVER_ROLE=web is PostgreSQL's).
    ...(runsJobs(config) ? [] : [workerCheck(jobs)]),
  ]);

  const auth = createAuthService({ db, config, clock });
  const notifications = createNotificationsService(db, clock);
  const items = createItemsService(db, clock, files, { readCacheEntries: config.READ_CACHE_ENTRIES });
  const catalogue = createCatalogueLookup(db);
  const orders = createOrdersService(db, clock, {
    files,
    assertClear: (actor) => notifications.assertClear(actor),
    catalogueByJan: (customerId, jan) => items.byJan(customerId, jan),
    catalogueEntries: (customerId, jans) => catalogue.entries(customerId, jans),
  });
  const ordersLookup = createOrdersLookup(db, clock, files);
  const exportProgress = createExportProgress(db, clock, (e) =>
    app.log.warn({ err: e }, 'export progress not written'),
  );
  // Every file a download builds is a render job, run by a worker instance (issue 27); a tenant's
  // renders asked at once are bounded (issue 36 #3).
  // The server's secret key: JD secrets at rest, and (a key derived from it) render inputs' MACs.
  const secretKey = loadSecretKey(config.JD_SECRET_KEY, config.DATA_DIR);
  const stopRenders = useRenderRunner(
    boundedRunner(
      createExportRenders({
        db,
        jobs,
        files,
        inputKey: renderInputKey(secretKey),
        progress: exportProgress,
        webOnly: !runsJobs(config),
        log: app.log,
      }),
      new RenderBound(config.RENDERS_QUEUED_PER_TENANT),
    ),
  );
  app.addHook('onClose', async () => stopRenders());
  // Downloads asked for without waiting (issue 38 item 6): their files kept in the store for `export/file`.
  const downloads = createExportDownloads({
    db,
    files,
    jobs,
    progress: exportProgress,
    heartbeatMs: config.DOWNLOAD_HEARTBEAT_SECONDS * 1000,
    log: app.log,
  });
  app.addHook('onClose', async () => downloads.stop());
  const registrar = createRegistrar(app, db, (token) => auth.authenticate(token), {
    readCacheEntries: config.READ_CACHE_ENTRIES,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    exportProgress,
    downloads,
  });

  authRoutes(registrar, auth);
  adminRoutes(registrar, createAdminService({ db, clock, files }));
  referenceRoutes(registrar, db);
  // One parse pool per instance (order import and order review): PARSE_WORKERS bounds the machine.
  const parsePool = createParsePool({
    workers: config.PARSE_WORKERS,
    timeoutMs: config.PARSE_TIMEOUT_SECONDS * 1000,
    memoryMb: config.PARSE_MEMORY_MB,
    onTerminated: () => app.log.warn('a parse worker did not stop when asked and was terminated'),
  });
  const batches = createBatchesService({
    db,
    clock,
    files,
    assertNoticesClear: (actor) => notifications.assertClear(actor),
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    parsePool,
    previewTtlMinutes: config.PREVIEW_TTL_MINUTES,
    afterStagedChunk,
    catalogueEntries: (customerId, jans) => catalogue.entries(customerId, jans),
    logError: (err, context) => app.log.error({ err, ...context }, 'batch commit failed'),
    jobs,
  });
  // A batch left running with no job (by a version before the queue) gets one that fails it.
  await batches.recoverAtStart();
  batchesRoutes(registrar, batches);
  // Parses end (their batches failed with a reason) and jobs finish before the database closes.
  app.addHook('onClose', () => batches.close());
  notificationsRoutes(registrar, notifications);
  ordersRoutes(registrar, orders, ordersLookup);
  idCardsRoutes(registrar, createIdCardsService(db, clock, files));
  // The v1 API for customers' own systems and their webhooks (issue 39): app-v1.ts.
  const interceptions = createInterceptionsService(db, clock);
  const v1 = mountV1Door(app, registrar, {
    config,
    db,
    clock,
    jobs,
    secretKey,
    version: VERSION,
    orders,
    batches,
    interceptions,
  });
  orderChangesRoutes(registrar, createOrderChanges(db, clock, files));
  interceptionsRoutes(registrar, interceptions);
  exportJobsRoutes(registrar, downloads);
  const itemImports = createItemImportService({
    db,
    clock,
    files,
    items,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    previewTtlMinutes: config.PREVIEW_TTL_MINUTES,
    jobs,
    logError: (err, importId) => app.log.error({ err, importId }, 'item import failed'),
  });
  await itemImports.recoverAtStart();
  itemsRoutes(registrar, items, itemImports);
  const orderReviews = createOrderReviewsService({
    db,
    clock,
    files,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    parsePool,
    template: () => batches.template('order'),
    jobs,
    logError: (err, reviewId) => app.log.error({ err, reviewId }, 'order review parse failed'),
  });
  orderReviewsRoutes(registrar, orderReviews);
  exportNominationsRoutes(registrar, createExportNominationsService({ db, clock }));
  recipientsRoutes(registrar, createRecipientsService({ db, clock }));
  selfSendsRoutes(registrar, createSelfSendsService({ db, clock }));
  meituanRoutes(
    registrar,
    createMeituanService({
      db,
      clock,
      files,
      uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
      assertNoticesClear: (actor) => notifications.assertClear(actor),
    }),
  );
  billsRoutes(registrar, createBillsService({ db, clock }));
  // File retention (issue 17): temporary files older than FILE_RETENTION_DAYS lose their bytes.
  setFileRetentionDays(config.FILE_RETENTION_DAYS);
  jobs.every(
    {
      name: 'file-sweep',
      run: async () => void (await files.sweep(clock(), config.FILE_RETENTION_DAYS)),
    },
    { everyMs: config.FILE_SWEEP_MINUTES * 60_000, atStart: false },
  );
  // Storage accrual (issue 17): the closed months of parcels still in the warehouse, at start and every STORAGE_ACCRUAL_HOURS.
  jobs.every(
    storageAccrualJob({ db, clock, onDone: (written) => written && app.log.info({ written }, 'storage accrued') }),
    { everyMs: config.STORAGE_ACCRUAL_HOURS * 3_600_000, atStart: true },
  );
  const labelB = createLabelBService({
    db,
    clock,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    logError: (err, batchId) => app.log.error({ err, batchId }, 'address batch failed'),
    jobs,
    // A printed order whose address changed needs a label B, and that is billed (issue 17).
    onLabelB: async (trx, m) => {
      await chargeRelabel(trx, m.orderIds, m.at, m.by);
    },
  });
  await labelB.recoverAtStart();
  labelBRoutes(registrar, labelB);
  // Print jobs run on the queue, which waits for the running ones when the app closes.
  const labels = createLabelsService({
    db,
    clock,
    fontDir: config.LABEL_FONT_DIR,
    files,
    jobs,
    logError: (err, jobId) => app.log.error({ err, jobId }, 'print job failed'),
  });
  labelsRoutes(registrar, labels);
  labelsV1Routes(v1, labels);
  mdaRoutes(registrar, createMdaService({ db, clock, fontDir: config.LABEL_FONT_DIR }));
  const clearance = createClearanceService({ db, clock, files, uploadLimitBytes: config.UPLOAD_LIMIT_BYTES });
  clearanceRoutes(registrar, clearance);
  await clearanceWebhookRoutes(app, clearance, config.CLEARANCE_WEBHOOK_SECRETS, clock);
  const pickups = createPickupsService({ db, clock, fontDir: config.LABEL_FONT_DIR });
  pickupsRoutes(registrar, pickups);
  storageOrdersRoutes(
    registrar,
    createStorageOrdersService({
      db,
      clock,
      files,
      uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
      afterStore: async (trx, so, codes, at) => {
        await pickups.linkStorage(trx, so, codes, at);
        await matchSelfSends(trx, { storageOrderId: so.id, customerId: so.customer_id, codes, at });
      },
    }),
    config.UPLOAD_LIMIT_BYTES,
  );
  exportDeclarationsRoutes(
    registrar,
    createExportDeclarationsService({
      db,
      clock,
      files,
      uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
      mailer: smtpMailer(config.SMTP_URL, config.SMTP_FROM),
      mailRetry: { limit: config.SMTP_RETRIES, delaySeconds: config.SMTP_RETRY_SECONDS },
      jobs,
      logError: (err, context) => app.log.error({ err, ...context }, 'export declarations failed'),
    }),
  );

  // JD's callback from configuration only (finding 11 of issue 26), never from a request's Host.
  const jdRedirectUri =
    config.JD_REDIRECT_URI ?? (config.PUBLIC_URL ? `${config.PUBLIC_URL}${jdContract.JD_CALLBACK_PATH}` : null);
  if (!jdRedirectUri) {
    app.log.warn('JD authorization is off until PUBLIC_URL (or JD_REDIRECT_URI) is set: no callback address for JD');
  }
  const jdAuthorize = createJdAuthorizeService({
    db,
    clock,
    box: secretBox(secretKey),
    jd: createJdClient(config.JD_OAUTH_BASE_URL),
    redirectUri: jdRedirectUri,
  });
  jdAuthorizeRoutes(registrar, app, jdAuthorize);
  // JD tokens near their expiry are renewed at start and every JD_RENEW_HOURS; a refusal is logged
  // (never the secret: askJd keeps only JD's code and message) and the list keeps warning.
  jobs.every(
    {
      name: 'jd-renewal',
      run: async () => {
        const r = await jdAuthorize.renewDue();
        if (r.renewed) app.log.info({ renewed: r.renewed }, 'JD tokens renewed');
        for (const f of r.failed) app.log.warn({ err: f.error, jdAuthorizationId: f.id }, 'JD token renewal failed');
      },
    },
    { everyMs: config.JD_RENEW_HOURS * 3_600_000, atStart: true },
  );
  jobs.assertComplete();

  registerConsole(app, config.WEB_DIST);
  return app;
}
