import { apiLanguages } from '@console/contract';
import { z } from 'zod';
import type { JobKind, JobQueue, PeriodicOptions } from './jobs.shared.ts';

/**
 * Every job kind the server runs, in one place (issue 38 item 1): its payload's schema and
 * version, its retry policy and how many may run at once. The modules define each kind's handler
 * (`jobs.define`, `jobs.every`); `withJobCatalogue` holds them to this list:
 * - a kind not listed here, or defined twice, or defined with another policy than listed, stops
 *   the start (`assertComplete` also stops it when a listed kind has no handler);
 * - every payload is checked against its schema when it is enqueued and again when it runs, with
 *   its version: during a rolling deploy an instance of the new release may take a job an old one
 *   enqueued. A payload of another version or shape fails its job with `jobPayloadRefused` in the
 *   log, rather than a handler reading fields that are not there. A change of a payload's shape
 *   raises its version; a handler that must also read the old one says so in its schema.
 *
 * Policies, as the queue reads them (jobs.shared.ts `JobKind`):
 * - `retry`: `none` (a failure is final; transient database errors still run again), `fixed` (the
 *   kind's own limit and delay), `setting` (from a setting; off when it is 0);
 * - `concurrency`: `exclusive` (one waiting or running per singleton key, e.g. per batch), `any`,
 *   `periodic` (one per period across instances, never two at once);
 * - `processBound`: on SQLite the process that enqueued it runs it (its input is in its hands);
 * - `lane`: runs in slots of its own, a tenant one at a time there (webhook deliveries).
 */
const id = z.number().int();
const lang = z.enum(apiLanguages);
const scope = z.union([
  z.object({ all: z.literal(true) }),
  z.object({ all: z.literal(false), customerIds: z.array(id) }),
]);
const periodic = z.object({});

interface CatalogueEntry {
  version: number;
  payload: z.ZodType;
  retry: 'none' | 'fixed' | 'setting';
  concurrency: 'exclusive' | 'any' | 'periodic';
  processBound?: true;
  /** A lane of its own (jobs.shared.ts `JobKind.lane`): its slots are the module's setting. */
  lane?: true;
}
const entry = <S extends z.ZodType>(e: Omit<CatalogueEntry, 'payload'> & { payload: S }) => e;

const render = z.object({
  id: z.string(),
  tenant: z.string(),
  small: z.boolean(),
  progress: z.object({ userId: id, id: z.string() }).optional(),
  query: z.string().nullable().optional(),
});

export const jobCatalogue = {
  // Order batches (modules/batches): parse an upload, commit a confirmed preview.
  'batch-parse': entry({
    version: 1,
    payload: z.object({ batchId: id, lang, channel: z.string().nullable(), recovered: z.boolean().optional() }),
    retry: 'fixed',
    concurrency: 'exclusive',
  }),
  'batch-commit': entry({
    version: 1,
    payload: z.object({ batchId: id, userId: id, lang, recovered: z.boolean().optional() }),
    retry: 'none',
    concurrency: 'exclusive',
  }),
  'batch-preview-expiry': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  // Product imports (modules/items).
  'item-import-commit': entry({
    version: 1,
    payload: z.object({ importId: id, userId: id, lang }),
    retry: 'none',
    concurrency: 'exclusive',
  }),
  'item-import-preview-expiry': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  // Address batches (modules/label-b): one transaction per apply.
  // `userId`, who confirmed it (read-your-own-writes): optional, so a payload of the release
  // before it still reads (the batch's maker stands in), and an older release ignores it.
  'label-b-apply': entry({
    version: 1,
    payload: z.object({ batchId: id, userId: id.optional() }),
    retry: 'none',
    concurrency: 'exclusive',
  }),
  // Print jobs (modules/labels).
  'label-print': entry({
    version: 1,
    payload: z.object({
      jobId: id,
      userId: id,
      scope,
      lang,
      ids: z.array(id),
      printer: z.string().nullable(),
    }),
    retry: 'none',
    concurrency: 'any',
  }),
  // Order reviews (modules/order-reviews).
  'order-review-parse': entry({
    version: 1,
    payload: z.object({ reviewId: id, lang }),
    retry: 'none',
    concurrency: 'exclusive',
  }),
  // Export declarations (modules/export-declarations): a workbook's run, a permit's e-mail.
  'export-declaration-batch': entry({
    version: 1,
    payload: z.object({ runId: id }),
    retry: 'none',
    concurrency: 'exclusive',
  }),
  'export-permit-mail': entry({
    version: 1,
    payload: z.object({ orderId: id, fileId: id, lang }),
    retry: 'setting',
    concurrency: 'exclusive',
  }),
  // Workbook and PDF renders (modules/export-jobs).
  'render-small': entry({ version: 1, payload: render, retry: 'none', concurrency: 'any', processBound: true }),
  'render-heavy': entry({ version: 1, payload: render, retry: 'none', concurrency: 'any', processBound: true }),
  'render-sweep': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  // Console downloads nobody fetched (modules/export-jobs/export-downloads.ts).
  'download-sweep': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  // Webhooks (modules/webhooks): the outbox's relay, one job per delivery.
  'webhook-relay': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  'webhook-deliver': entry({
    version: 1,
    // `resend`: asked for by a person (resend): sent even if the delivery says succeeded meanwhile.
    payload: z.object({ deliveryId: id, resend: z.boolean().optional() }),
    retry: 'setting',
    concurrency: 'any',
    lane: true,
  }),
  // Housekeeping and renewals (app.ts, modules/bills, modules/jd-authorize).
  'idempotency-sweep': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  'file-sweep': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  'storage-accrual': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
  'jd-renewal': entry({ version: 1, payload: periodic, retry: 'none', concurrency: 'periodic' }),
} as const satisfies Record<string, CatalogueEntry>;

export type JobName = keyof typeof jobCatalogue;
/** A kind's payload, as its schema says: the one declaration of it. */
export type JobPayload<N extends JobName> = z.infer<(typeof jobCatalogue)[N]['payload']>;

/** The field a stored payload carries its version in. */
const VERSION_FIELD = 'payloadVersion';

/** A payload this release cannot read (another version or shape): its job fails, said in the log. */
export class JobPayloadRefused extends Error {
  readonly key = 'jobPayloadRefused';
}

function entryOf(name: string): CatalogueEntry {
  const e = (jobCatalogue as Record<string, CatalogueEntry>)[name];
  if (!e) throw new Error(`job kind ${name} is not in the job catalogue (lib/job-catalogue.ts)`);
  return e;
}

/** Whether a kind's definition has the policy its catalogue entry lists. */
function checkPolicy(kind: JobKind<never>, e: CatalogueEntry, periodicKind: boolean) {
  const wrong = (what: string) => new Error(`job kind ${kind.name}: ${what} differs from the job catalogue`);
  if (periodicKind !== (e.concurrency === 'periodic')) throw wrong('periodic');
  if (!!kind.exclusive !== (e.concurrency === 'exclusive')) throw wrong('exclusive');
  if (!!kind.processBound !== !!e.processBound) throw wrong('processBound');
  if (!!kind.lane !== !!e.lane) throw wrong('lane');
  if (e.retry === 'none' && kind.retry) throw wrong('retry');
  if (e.retry === 'fixed' && !kind.retry) throw wrong('retry');
}

/** The payload a handler gets: checked against its kind's version and schema. */
function readPayload(name: string, raw: unknown): unknown {
  const e = entryOf(name);
  const stored = (raw ?? {}) as Record<string, unknown>;
  const version = stored[VERSION_FIELD] ?? 1;
  if (version !== e.version)
    throw new JobPayloadRefused(`job ${name}: payload version ${String(version)}, this release reads ${e.version}`);
  const { [VERSION_FIELD]: _v, ...rest } = stored;
  const parsed = e.payload.safeParse(rest);
  if (!parsed.success)
    throw new JobPayloadRefused(
      `job ${name}: payload of another shape (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')})`,
    );
  return parsed.data;
}

/**
 * The queue held to the catalogue (see above). `assertComplete()`, once every module has defined
 * its kinds, throws when a listed kind has no handler.
 */
export type CataloguedQueue = JobQueue & {
  assertComplete(): void;
  /** The queue without the catalogue's checks: for tests that define kinds of their own. */
  readonly unchecked: JobQueue;
};

export function withJobCatalogue(queue: JobQueue): CataloguedQueue {
  const defined = new Set<string>();
  const guard = <P>(kind: JobKind<P>, periodicKind: boolean): JobKind<P> => {
    const e = entryOf(kind.name);
    if (defined.has(kind.name)) throw new Error(`job kind ${kind.name} is defined twice`);
    checkPolicy(kind as JobKind<never>, e, periodicKind);
    defined.add(kind.name);
    return {
      ...kind,
      run: async (raw, ctx) => kind.run(readPayload(kind.name, raw) as P, ctx),
      gaveUp: kind.gaveUp && (async (raw, reason) => kind.gaveUp!(readPayload(kind.name, raw) as P, reason)),
    };
  };
  return {
    ...queue,
    backend: queue.backend,
    define: (kind) => queue.define(guard(kind, false)),
    every: (kind, opts: PeriodicOptions) => queue.every(guard(kind, true), opts),
    async enqueue(name, payload, opts) {
      const e = entryOf(name);
      const parsed = e.payload.safeParse(payload);
      if (!parsed.success) throw new Error(`job ${name}: enqueued with a payload its schema refuses`);
      await queue.enqueue(name, { ...(payload as object), [VERSION_FIELD]: e.version }, opts);
    },
    unchecked: queue,
    assertComplete() {
      const missing = Object.keys(jobCatalogue).filter((n) => !defined.has(n));
      if (missing.length) throw new Error(`job kinds without a handler: ${missing.join(', ')}`);
    },
  };
}
