/**
 * Every message key the server answers with, and its words in both API languages: the one
 * catalogue of error identities (issue 30, item 1). An error answer's `key` is one of these or a
 * rule of the contract's field checks (../messages.ts); docs/api.md says how clients use it.
 * Each module keeps its part in a file of its name; a key is defined once across all parts
 * (checked when this loads, and by errors.test.ts). Not in the contract's index: the console
 * needs only the type, and the words would weigh on its bundle.
 */
import type { RuleName } from '../messages.ts';
import type { Catalogue } from './catalogue.ts';
import { adminMessages } from './admin.ts';
import { apiKeysMessages } from './api-keys.ts';
import { authMessages } from './auth.ts';
import { batchesMessages } from './batches.ts';
import { billsMessages } from './bills.ts';
import { clearanceMessages } from './clearance.ts';
import { coreMessages } from './core.ts';
import { databaseMessages } from './database.ts';
import { exportDeclarationsMessages } from './export-declarations.ts';
import { exportNominationsMessages } from './export-nominations.ts';
import { generatedFilesMessages } from './generated-files.ts';
import { interceptionsMessages } from './interceptions.ts';
import { itemsMessages } from './items.ts';
import { jdAuthorizeMessages } from './jd-authorize.ts';
import { labelBMessages } from './label-b.ts';
import { labelsMessages } from './labels.ts';
import { mdaMessages } from './mda.ts';
import { meituanMessages } from './meituan.ts';
import { orderErrorsMessages } from './order-errors.ts';
import { orderInputMessages } from './order-input.ts';
import { orderLifeMessages } from './order-life.ts';
import { orderReviewsMessages } from './order-reviews.ts';
import { ordersMessages, orderChangesMessages } from './orders.ts';
import { pickupsMessages } from './pickups.ts';
import { recipientsMessages } from './recipients.ts';
import { selfSendsMessages } from './self-sends.ts';
import { storageOrdersMessages } from './storage-orders.ts';
import { taxEstimateMessages } from './tax-estimate.ts';
import { waybillsMessages } from './waybills.ts';

export type { Catalogue } from './catalogue.ts';
export { databaseMessages };

/** The parts, each a module's messages. */
export const catalogueParts = {
  adminMessages,
  apiKeysMessages,
  authMessages,
  batchesMessages,
  billsMessages,
  clearanceMessages,
  coreMessages,
  databaseMessages,
  exportDeclarationsMessages,
  exportNominationsMessages,
  generatedFilesMessages,
  interceptionsMessages,
  itemsMessages,
  jdAuthorizeMessages,
  labelBMessages,
  labelsMessages,
  mdaMessages,
  meituanMessages,
  orderErrorsMessages,
  orderInputMessages,
  orderLifeMessages,
  orderReviewsMessages,
  ordersMessages,
  orderChangesMessages,
  pickupsMessages,
  recipientsMessages,
  selfSendsMessages,
  storageOrdersMessages,
  taxEstimateMessages,
  waybillsMessages,
} as const;

function merged<T extends Record<string, Catalogue>>(parts: T): Catalogue {
  const all: Catalogue = {};
  for (const [part, catalogue] of Object.entries(parts)) {
    for (const key of Object.keys(catalogue)) {
      if (Object.hasOwn(all, key)) throw new Error(`Message key defined twice: ${key} (again in ${part})`);
    }
    Object.assign(all, catalogue);
  }
  return all;
}

type Parts = typeof catalogueParts;
type KeysOf<P> = P extends Record<string, infer C> ? (C extends Catalogue ? keyof C : never) : never;

/** A key of the catalogue. */
export type MessageKey = Extract<KeysOf<Parts>, string>;
/** What an error answer's `key` can be: a catalogued message or a field rule of the contract. */
export type ErrorKey = MessageKey | RuleName;

export const errorMessages = merged(catalogueParts) as Record<MessageKey, Record<'en' | 'zh-CN', string>>;
