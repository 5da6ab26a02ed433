import type { Database } from '../db/database.ts';
import { audit, type AuditEntry } from './audit.ts';
import type { Actor } from './scope.ts';

/**
 * Every write on one customer's own business data (orders, their life, items, documents and flags,
 * recipients, items, JD apps, pickups, self-sends, declarations, reviews). A customer's own write
 * is its own data and writes no audit row; the same write by an operator, an admin or an agent
 * is a change made on someone else's data and is recorded with who, when, from where and what
 * (issue 36 #6: an operator's order delete, a JD credential removed, an item approved left no
 * trace). A service that knows the record calls `StaffWrite.record` in its transaction with the
 * record before and after; for the others the router writes the call and what was sent once it
 * succeeded (`register-call.ts`). The audit-coverage walk (test/admin/audit-coverage.test.ts) has
 * every write of the contract in this list, audited by its own service, or a read-like exception.
 */
export const STAFF_AUDITED_WRITES: ReadonlySet<string> = new Set([
  // An order's life: each also writes its tracking events (who, when, why).
  'order/error/update',
  'order/error/update2',
  'order/error/boxcUpdate',
  'order/abnormal/update',
  'order/orderScan',
  'order/create/interception',
  'order/cancel/interception',
  'order/printLabelA',
  'clearance/upload',
  'updateLableB/create',
  'storageOrder/create',
  'storageOrder/outSingle',
  'storageOrder/outBatch',
  'storageOrder/outBatchUpload',
  // Orders' content, and the customers' other business data.
  'order/batch/create',
  'order/batch/createEmsImport',
  'order/batch/createImport',
  'order/batch/createImportByBoxC',
  'order/batch/createUsaBoxcImport',
  'order/batch/confirm',
  'order/batch/delete',
  'order/createImport',
  'order/order/update',
  'order/order/delete',
  'order/item/create',
  'order/item/update',
  'order/item/delete',
  'order/setFlag',
  'order/setOrderFlag',
  'order/batchSender/apply',
  'order/updates/apply',
  'order/idCard/upload',
  'order/idCard/import',
  'exportDeclaration/update',
  'exportDeclaration/updatebatch',
  'exportDeclaration/updatebatch2',
  'exportDeclaration/uploadPermit',
  'storageOrder/createBatch',
  'export/create',
  'export/update',
  'export/delete',
  'item/create',
  'item/update',
  'item/approve',
  'item/fail',
  'item/adjust',
  'item/adopt',
  'item/reject',
  'item/image/upload',
  'item/import/confirm',
  'jdAuthorize/create',
  'jdAuthorize/update',
  'jdAuthorize/delete',
  'jdAuthorize/renewal',
  'jdAuthorize/getAuthorizeUrl',
  'jdAuthorize/getJdToken',
  'meituan_reservation_order/create',
  'meituan_reservation_order/complete',
  'orderReview/create',
  'orderReview/delBatch',
  'orderReview/complete',
  'recipient/create',
  'recipient/update',
  'recipient/delete',
  'selfSends/save',
  'subscribe/take/piece',
  'subscribe/take/piece/update',
  'subscribe/take/piece/cancel',
]);

/**
 * Field names whose values never go into the log: secrets, bytes (images, files) and ID-card
 * numbers. A changed one still shows as changed, with both sides withheld.
 */
const WITHHELD = /secret|password|token|image|file|base64|data$|id_?card/i;

function withheld(value: unknown, depth = 0): unknown {
  if (depth > 4) return '…';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => withheld(v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    if (Buffer.isBuffer(value)) return '(bytes)';
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = WITHHELD.test(k) ? '(withheld)' : withheld(v, depth + 1);
    return out;
  }
  return value;
}

/**
 * The fields that differ between two images of a record, each side with only those fields: what an
 * edit changed, short enough for the log's bounded detail. A delete passes `after` null (the whole
 * record is the before-image), a create `before` null.
 */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): { before: unknown; after: unknown } {
  if (!before || !after) return { before: before && withheld(before), after: after && withheld(after) };
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    // Compared as stored, shown withheld: a changed secret shows as changed, its values not.
    if (JSON.stringify(before[k] ?? null) === JSON.stringify(after[k] ?? null)) continue;
    b[k] = before[k];
    a[k] = after[k];
  }
  return { before: withheld(b), after: withheld(a) };
}

/** What a service knows of its change: the record, its customer and its images before and after. */
export interface StaffChange {
  /** The record changed (`recipient:12`); the call's path when not given. */
  target?: string;
  customerId?: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * One call's record of a staff write (issue 36 #6). The router makes one per call; a service that
 * knows the record's images calls `record` inside its transaction, so the row says what changed
 * (before and after) and commits or rolls back with the change. A listed call whose service
 * recorded nothing gets the router's row after it succeeded: who, the call and what was sent.
 * A customer's own write records nothing: `applies` is false.
 */
export class StaffWrite {
  readonly applies: boolean;
  #recorded = false;
  readonly #path: string;
  readonly #actor: Actor | undefined;
  readonly #ip: string;
  readonly #input: unknown;

  constructor(path: string, input: unknown, actor: Actor | undefined, ip: string) {
    this.#path = path;
    this.#input = input;
    this.#actor = actor;
    this.#ip = ip;
    this.applies = !!actor && actor.role !== 'customer' && STAFF_AUDITED_WRITES.has(path);
  }

  /** Writes the change's row through `db` (the change's transaction); nothing for a customer's own write. */
  async record(db: Database, change: StaffChange): Promise<void> {
    if (!this.applies) return;
    const { before, after } = changedFields(change.before, change.after);
    await audit(
      db,
      { actor: this.#actor!, ip: this.#ip },
      {
        action: 'staff.write',
        target: change.target ?? this.#path,
        customerId: change.customerId ?? null,
        detail: { role: this.#actor!.role, call: this.#path, before, after },
      },
    );
    this.#recorded = true;
  }

  /** The router's row when the service recorded none, or null (not staff, not listed, or recorded). */
  fallback(): AuditEntry | null {
    if (!this.applies || this.#recorded) return null;
    return {
      action: 'staff.write',
      target: this.#path,
      detail: { role: this.#actor!.role, call: this.#path, sent: withheld(this.#input) },
    };
  }
}
