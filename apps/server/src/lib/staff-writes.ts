import type { Actor } from './scope.ts';
import type { AuditEntry } from './audit.ts';

/**
 * Writes on one customer's own business data (orders and their items, documents and flags,
 * recipients, items, JD apps, pickups, self-sends, declarations, reviews). A customer's own write
 * is its own data and writes no audit row; the same write by an operator, an admin or an agent
 * is a change made on someone else's data and is recorded with who, when, from where and what was
 * sent (issue 36 #6: an operator's order delete, a JD credential removed, an item approved left
 * no trace). The router writes the row once the call has succeeded (`register-call.ts`); the
 * calls whose service audits itself (admin, money) are not here, and a status change's tracking
 * event already names who made it.
 */
export const STAFF_AUDITED_WRITES: ReadonlySet<string> = new Set([
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
  'item/image/upload',
  'item/import/confirm',
  'jdAuthorize/create',
  'jdAuthorize/update',
  'jdAuthorize/delete',
  'jdAuthorize/renewal',
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

/** Field names whose values never go into the log: secrets, and bytes (images, files). */
const WITHHELD = /secret|password|token|image|file|base64|data$/i;

function withheld(value: unknown, depth = 0): unknown {
  if (depth > 4) return '…';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => withheld(v, depth + 1));
  if (value && typeof value === 'object') {
    if (Buffer.isBuffer(value)) return '(bytes)';
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = WITHHELD.test(k) ? '(withheld)' : withheld(v, depth + 1);
    return out;
  }
  return value;
}

/** The audit row a call's write makes when staff or an agent made it on a customer's data, or null. */
export function staffWriteEntry(path: string, input: unknown, actor: Actor | undefined): AuditEntry | null {
  if (!actor || actor.role === 'customer' || !STAFF_AUDITED_WRITES.has(path)) return null;
  return { action: 'staff.write', target: path, detail: { role: actor.role, sent: withheld(input) } };
}
