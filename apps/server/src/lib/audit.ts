import type { admin } from '@console/contract';
import type { Database } from '../db/database.ts';
import type { Actor } from './scope.ts';

/**
 * The audit log (issue 17): every administrative change and every read of something sensitive
 * (an ID-card image, an export permit) writes one row: who, when, what, on what, from where.
 * Any module calls `audit()`; pass the transaction of the change so the row commits (or rolls
 * back) with it. `action` is a stable dotted name (`user.create`, `idCard.image`), `target` what
 * it acted on (`user:12`, `customer:ACME`), `detail` a short description or a small object.
 */
export interface AuditEntry {
  /** One of the contract's `auditActions`: the console has a sentence for each. */
  action: admin.AuditAction;
  target?: string;
  detail?: string | Record<string, unknown>;
  /** The customer whose data it changed, when one: that customer can read the row (issue 36 #6). */
  customerId?: number | null;
}

/** Who made the change and from where (a call's context fits: it has `actor` and `ip`). */
export interface AuditWho {
  actor: Pick<Actor, 'userId' | 'name'> | null;
  ip: string;
}

export async function audit(db: Database, who: AuditWho, entry: AuditEntry, at: Date = new Date()): Promise<void> {
  const detail = typeof entry.detail === 'string' ? entry.detail : entry.detail ? JSON.stringify(entry.detail) : '';
  await db
    .insertInto('audit_log')
    .values({
      at: at.toISOString(),
      user_id: who.actor?.userId ?? null,
      user_name: who.actor?.name ?? '',
      action: entry.action,
      target: entry.target ?? '',
      // Bounded: the log is for reading, not a second copy of the data.
      detail: detail.slice(0, 2000),
      ip: who.ip.slice(0, 64),
      customer_id: entry.customerId ?? null,
    })
    .execute();
}
