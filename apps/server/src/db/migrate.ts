import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { withDatabaseLock } from './dialect.ts';
import * as m0001 from './migrations/2026-11-21T1400-core.ts';
import * as m0002 from './migrations/2026-11-21T1500-batches.ts';
import * as ordersMigration from './migrations/2026-11-21T1510-orders.ts';
import * as orderIndexes from './migrations/2026-11-22T0900-order-indexes.ts';
import * as createdEvents from './migrations/2026-11-22T0910-created-events.ts';
import * as loginAttempts from './migrations/2026-11-23T0525-auth-login-attempts.ts';
import * as agentIdCards from './migrations/2026-11-23T0525-orders-agent-id-cards.ts';
import * as stagedPreviews from './migrations/2026-11-23T0530-commit-staged-previews.ts';
import * as orderPages from './migrations/2026-11-24T0300-pages-order-pages.ts';
import * as itemsCatalogue from './migrations/2026-11-24T0400-items-catalogue.ts';
import * as itemsOneOpenAdjustment from './migrations/2026-11-24T0410-items-one-open-adjustment.ts';
import * as catordersTax from './migrations/2026-11-24T0420-catorders-tax.ts';
import * as orderReviews from './migrations/2026-11-24T0420-review-order-reviews.ts';
import * as ordersInterceptedIndex from './migrations/2026-11-24T0500-orders-intercepted-index.ts';
import * as itemImports from './migrations/2026-11-24T0500-itemimport-imports.ts';
import * as itemListIndexes from './migrations/2026-11-24T0600-benchitems-item-list-indexes.ts';
import * as settingsSeq from './migrations/2026-11-24T0855-settings-seq.ts';
import * as exportNominations from './migrations/2026-11-24T0900-exports-nominations.ts';
import * as lifeInterceptions from './migrations/2026-11-24T0900-life-interceptions.ts';
import * as clearanceResults from './migrations/2026-11-24T0930-clearance-results.ts';
import * as storageOrders from './migrations/2026-11-24T0930-storage-orders.ts';
import * as meituanSelfSendsRecipients from './migrations/2026-11-24T1330-meituan-self-sends-recipients.ts';
import * as printJobs from './migrations/2026-11-24T0950-labels-print-jobs.ts';
import * as exportDeclarations from './migrations/2026-11-24T1300-export-declarations.ts';
import * as jdAuthorize from './migrations/2026-11-24T1335-jd-authorize.ts';
import * as pickupAppointments from './migrations/2026-11-24T1325-pickups-appointments.ts';
import * as declPermitUpload from './migrations/2026-11-24T1310-decl-permit-upload.ts';
import * as labelBBatches from './migrations/2026-11-24T1320-labelb-address-batches.ts';
import * as adminAudit from './migrations/2026-11-24T1345-admin-audit.ts';
import * as customerChannelsSegments from './migrations/2026-11-24T1400-customer-channels-segments.ts';
import * as billsCharges from './migrations/2026-11-24T1340-bills-charges.ts';
import * as storageLineWeight from './migrations/2026-11-24T1400-storage-line-weight.ts';
import * as storagePreAlert from './migrations/2026-11-27T0100-storage-pre-alert.ts';
import * as knownLoginAddresses from './migrations/2026-11-27T0140-auth-known-login-addresses.ts';
import * as waybillReservations from './migrations/2026-11-27T0150-waybill-reservations.ts';
import * as documentNumberSequence from './migrations/2026-11-27T0160-document-number-sequence.ts';
import * as jobQueue from './migrations/2026-11-27T0170-job-queue.ts';
import * as fileBlobs from './migrations/2026-11-27T0190-file-blobs.ts';
import * as exportProgress from './migrations/2026-11-27T0191-export-progress.ts';
import * as printJobQueue from './migrations/2026-11-27T0200-print-job-queue.ts';
import * as orderReviewJobs from './migrations/2026-11-27T0420-order-review-jobs.ts';
import * as exportRenders from './migrations/2026-11-27T0430-export-renders.ts';
import * as fileBlobsUncompressed from './migrations/2026-11-27T0440-file-blobs-uncompressed.ts';
import * as recordVersions from './migrations/2026-11-27T0460-record-versions.ts';
import * as pickupUpdateRoute from './migrations/2026-11-27T0480-pages-pickup-update-route.ts';
import * as orderListSortIndexes from './migrations/2026-11-27T0915-orders-list-sort-indexes.ts';
import * as orderListCoveringIndexes from './migrations/2026-11-27T0930-orders-list-covering-indexes.ts';
import * as ordersRecipientNameCover from './migrations/2026-11-28T0030-orders-recipient-name-cover.ts';
import * as listIndexes from './migrations/2026-11-28T0100-list-indexes.ts';
import * as filesQuotaRetention from './migrations/2026-12-06T0600-files-quota-retention.ts';
import * as apiKeys from './migrations/2026-12-06T2140-api-keys.ts';
import * as ordersUpdatedIndex from './migrations/2026-12-06T2141-orders-updated-index.ts';
import * as jobQueueInterruptions from './migrations/2026-12-06T2200-job-queue-interruptions.ts';
import * as webhooks from './migrations/2026-12-07T0200-webhooks.ts';
import * as auditCustomer from './migrations/2026-12-07T0201-audit-customer.ts';
import * as developerMenu from './migrations/2026-12-07T0500-developer-menu.ts';
import * as exportDownloads from './migrations/2026-12-07T0510-export-downloads.ts';
import * as exportDownloadsHeartbeat from './migrations/2026-12-07T0900-export-downloads-heartbeat.ts';
import * as trackingLocationCode from './migrations/2026-12-07T1300-tracking-location-code.ts';
import * as writePositions from './migrations/2026-12-07T1700-write-positions.ts';

/**
 * Migrations are listed here in order rather than read from the folder, so the
 * server needs no file-system discovery and a bundler could include them.
 * Each is frozen once landed: a change is a new migration.
 */
const migrations: Record<string, Migration> = {
  '2026-11-21T1400-core': m0001,
  '2026-11-21T1500-batches': m0002,
  '2026-11-21T1510-orders': ordersMigration,
  '2026-11-22T0900-order-indexes': orderIndexes,
  '2026-11-22T0910-created-events': createdEvents,
  '2026-11-23T0525-auth-login-attempts': loginAttempts,
  '2026-11-23T0525-orders-agent-id-cards': agentIdCards,
  '2026-11-23T0530-commit-staged-previews': stagedPreviews,
  '2026-11-24T0300-pages-order-pages': orderPages,
  '2026-11-24T0400-items-catalogue': itemsCatalogue,
  '2026-11-24T0410-items-one-open-adjustment': itemsOneOpenAdjustment,
  '2026-11-24T0420-catorders-tax': catordersTax,
  '2026-11-24T0420-review-order-reviews': orderReviews,
  '2026-11-24T0500-itemimport-imports': itemImports,
  '2026-11-24T0500-orders-intercepted-index': ordersInterceptedIndex,
  '2026-11-24T0600-benchitems-item-list-indexes': itemListIndexes,
  '2026-11-24T0855-settings-seq': settingsSeq,
  '2026-11-24T0900-exports-nominations': exportNominations,
  '2026-11-24T0900-life-interceptions': lifeInterceptions,
  '2026-11-24T0930-clearance-results': clearanceResults,
  '2026-11-24T0930-storage-orders': storageOrders,
  '2026-11-24T0950-labels-print-jobs': printJobs,
  '2026-11-24T1300-export-declarations': exportDeclarations,
  '2026-11-24T1310-decl-permit-upload': declPermitUpload,
  '2026-11-24T1320-labelb-address-batches': labelBBatches,
  '2026-11-24T1325-pickups-appointments': pickupAppointments,
  '2026-11-24T1330-meituan-self-sends-recipients': meituanSelfSendsRecipients,
  '2026-11-24T1335-jd-authorize': jdAuthorize,
  '2026-11-24T1340-bills-charges': billsCharges,
  '2026-11-24T1345-admin-audit': adminAudit,
  '2026-11-24T1400-customer-channels-segments': customerChannelsSegments,
  '2026-11-24T1400-storage-line-weight': storageLineWeight,
  '2026-11-27T0100-storage-pre-alert': storagePreAlert,
  '2026-11-27T0140-auth-known-login-addresses': knownLoginAddresses,
  '2026-11-27T0150-waybill-reservations': waybillReservations,
  '2026-11-27T0160-document-number-sequence': documentNumberSequence,
  '2026-11-27T0170-job-queue': jobQueue,
  '2026-11-27T0190-file-blobs': fileBlobs,
  '2026-11-27T0191-export-progress': exportProgress,
  '2026-11-27T0200-print-job-queue': printJobQueue,
  '2026-11-27T0420-order-review-jobs': orderReviewJobs,
  '2026-11-27T0430-export-renders': exportRenders,
  '2026-11-27T0440-file-blobs-uncompressed': fileBlobsUncompressed,
  '2026-11-27T0460-record-versions': recordVersions,
  '2026-11-27T0480-pages-pickup-update-route': pickupUpdateRoute,
  '2026-11-27T0915-orders-list-sort-indexes': orderListSortIndexes,
  '2026-11-27T0930-orders-list-covering-indexes': orderListCoveringIndexes,
  '2026-11-28T0030-orders-recipient-name-cover': ordersRecipientNameCover,
  '2026-11-28T0100-list-indexes': listIndexes,
  '2026-12-06T0600-files-quota-retention': filesQuotaRetention,
  '2026-12-06T2140-api-keys': apiKeys,
  '2026-12-06T2141-orders-updated-index': ordersUpdatedIndex,
  '2026-12-06T2200-job-queue-interruptions': jobQueueInterruptions,
  '2026-12-07T0200-webhooks': webhooks,
  '2026-12-07T0201-audit-customer': auditCustomer,
  '2026-12-07T0500-developer-menu': developerMenu,
  '2026-12-07T0510-export-downloads': exportDownloads,
  '2026-12-07T0900-export-downloads-heartbeat': exportDownloadsHeartbeat,
  '2026-12-07T1300-tracking-location-code': trackingLocationCode,
  '2026-12-07T1700-write-positions': writePositions,
};

class ListedMigrations implements MigrationProvider {
  readonly #list: Record<string, Migration>;
  constructor(list: Record<string, Migration>) {
    this.#list = list;
  }
  async getMigrations() {
    return this.#list;
  }
}

/**
 * Runs the migrations not yet run. Several processes may do it at once (instances starting
 * together, `npm run migrate` beside them): Kysely's migrator creates its own tables before it
 * takes its lock, and two creates at once on an empty PostgreSQL database collide, so the whole
 * run holds a database lock of its own.
 * On PostgreSQL the pending migrations run in one transaction, except one that exports
 * `transactional = false` (an index built CONCURRENTLY, db/online-index.ts): the ones before it
 * commit first, it runs alone outside a transaction, then the rest go on.
 */
export async function migrateToLatest(db: Kysely<any>, list: Record<string, Migration> = migrations): Promise<void> {
  const migrator = new Migrator({ db, provider: new ListedMigrations(list) });
  await withDatabaseLock(db, 'console:migrate', async () => {
    const pending = (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
    for (const step of steps(pending, list)) {
      const { error, results } = await migrator.migrateTo(step.to, { disableTransactions: !step.transactional });
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
      }
    }
  });
}

/** Consecutive transactional migrations as one step (to the last of them); the others alone. */
function steps(pending: string[], list: Record<string, Migration>): { to: string; transactional: boolean }[] {
  const out: { to: string; transactional: boolean }[] = [];
  for (const name of pending) {
    const transactional = (list[name] as { transactional?: boolean }).transactional !== false;
    const last = out.at(-1);
    if (transactional && last?.transactional) last.to = name;
    else out.push({ to: name, transactional });
  }
  return out;
}

/** The migrations this database has not run yet (all of them on an empty one). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new ListedMigrations(migrations) });
  const all = await migrator.getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}
