/**
 * The one definition of every API call (ARCHITECTURE.md "The API contract"). The server
 * registers, validates and documents from it; the console is typed from it.
 * A module adds its file here and its calls to `calls`.
 */
import * as admin from './admin.ts';
import * as apiKeys from './api-keys.ts';
import * as auth from './auth.ts';
import * as batches from './batches.ts';
import * as bills from './bills.ts';
import * as clearance from './clearance.ts';
import * as exportDeclarations from './export-declarations.ts';
import * as exportJobs from './export-jobs.ts';
import * as exportNominations from './export-nominations.ts';
import * as files from './files.ts';
import * as interceptions from './interceptions.ts';
import * as items from './items.ts';
import * as jdAuthorize from './jd-authorize.ts';
import * as labelB from './label-b.ts';
import * as labels from './labels.ts';
import * as meituan from './meituan.ts';
import * as mda from './mda.ts';
import type { CallDef } from './call.ts';
import * as notifications from './notifications.ts';
import * as orderReviews from './order-reviews.ts';
import * as orders from './orders.ts';
import * as recipients from './recipients.ts';
import * as pickups from './pickups.ts';
import * as reference from './reference.ts';
import * as selfSends from './self-sends.ts';
import * as storageOrders from './storage-orders.ts';
import * as webhooks from './webhooks.ts';

export * from './call.ts';
export * from './checks.ts';
export * from './email.ts';
export * from './envelope.ts';
export * from './fields.ts';
export * from './i18n.ts';
export * from './messages.ts';
export * from './password.ts';
export * from './pasted.ts';
export * from './routes.ts';
export * from './schema-walk.ts';
export * from './statuses.ts';
export * from './versions.ts';
export * as v1 from './v1-api.ts';
export {
  admin,
  apiKeys,
  auth,
  batches,
  bills,
  clearance,
  exportDeclarations,
  exportJobs,
  exportNominations,
  files,
  interceptions,
  items,
  jdAuthorize,
  labelB,
  labels,
  meituan,
  mda,
  notifications,
  orderReviews,
  orders,
  recipients,
  pickups,
  reference,
  selfSends,
  storageOrders,
  webhooks,
};

export const calls = {
  admin,
  apiKeys,
  auth,
  batches,
  bills,
  clearance,
  exportDeclarations,
  exportJobs,
  exportNominations,
  files,
  interceptions,
  items,
  jdAuthorize,
  labelB,
  labels,
  meituan,
  mda,
  notifications,
  orderReviews,
  orders,
  recipients,
  pickups,
  reference,
  selfSends,
  storageOrders,
  webhooks,
} as const;

const isCall = (v: unknown): v is CallDef =>
  typeof v === 'object' && v !== null && 'path' in v && 'request' in v && 'response' in v;

/** Every call, flat; used for OpenAPI and the generated hostile-input tests. */
export const allCalls: CallDef[] = Object.values(calls).flatMap((mod) =>
  Object.values(mod as Record<string, unknown>).filter(isCall),
);
export { specAesCallPaths, specCallPaths } from './spec-calls.ts';
