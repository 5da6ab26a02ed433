import type { Database } from '../../db/database.ts';
import { audit, type AuditEntry } from '../../lib/audit.ts';
import type { Actor } from '../../lib/scope.ts';

/** Who made the call and from where: what the audit log records. */
export interface Caller {
  actor: Actor;
  ip: string;
}

/** Every change of administration writes its audit row in the change's own transaction. */
export const adminLog =
  (clock: () => Date) =>
  (trx: Database, c: Caller, action: AuditEntry['action'], target: string, detail?: string | Record<string, unknown>) =>
    audit(trx, c, { action, target, detail }, clock());
export type AdminLog = ReturnType<typeof adminLog>;
