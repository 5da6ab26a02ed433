import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';

/**
 * How long the files people upload are kept (issue 36, item 5; docs/decisions/2026-12-06-file-quotas-and-retention.md).
 * Files the server makes (`temporary`, files.ts TEMPORARY_KINDS) go FILE_RETENTION_DAYS after they
 * were made. An upload is kept while the record that names it needs it, and its bytes go once it
 * does not and it is older than FILE_RETENTION_DAYS — or at once for an order review that is done:
 * - `orderReviewUpload`: read by its review's parse only. Kept while that parse is queued or
 *   running; then until the review is completed, or FILE_RETENTION_DAYS after the upload.
 * - `batchUpload`: read by its batch's parse, and by a confirm of a batch with no stored preview.
 *   Kept while the batch parses, or is a preview or committing without its parsed orders.
 * - `idCard`, `itemImage`, `export-permit`: the customer's records. Kept while an ID card record
 *   (either side), an item or a declaration names them; one replaced, or its record deleted, goes.
 * An upload of a kind with no rule here is kept for ever: a new kind of upload gets its rule.
 * The sweep marks a file expired (its bytes go, its row stays and a download says "expired") under
 * the same condition it was found by, so a record that names it meanwhile keeps it.
 */
export type KeptUploadRule = {
  kind: string;
  /**
   * Whether a new file of this kind is refused past its customer's quota. Staff's uploads for a
   * customer (an export permit) count towards it but are not refused: they are the service's
   * paperwork, not the tenant's use.
   */
  refusedPastQuota: boolean;
  /** The file is due (its bytes may go): made before `before` (or the rule's own end) and no longer needed. */
  due: (eb: ExpressionBuilder<DB, 'files'>, before: string) => Expression<SqlBool>;
};

const older = (eb: ExpressionBuilder<DB, 'files'>, before: string) => eb('files.created_at', '<', before);

export const KEPT_UPLOADS: readonly KeptUploadRule[] = [
  {
    kind: 'orderReviewUpload',
    refusedPastQuota: true,
    due: (eb, before) =>
      eb.and([
        eb.not(
          eb.exists(
            eb
              .selectFrom('order_reviews as r')
              .select('r.id')
              .whereRef('r.file_id', '=', 'files.id')
              .where('r.parse_state', 'in', ['queued', 'parsing']),
          ),
        ),
        eb.or([
          older(eb, before),
          eb.exists(
            eb
              .selectFrom('order_reviews as r')
              .select('r.id')
              .whereRef('r.file_id', '=', 'files.id')
              .where('r.status', '=', 1),
          ),
        ]),
      ]),
  },
  {
    kind: 'batchUpload',
    refusedPastQuota: true,
    due: (eb, before) =>
      eb.and([
        older(eb, before),
        eb.not(
          eb.exists(
            eb
              .selectFrom('batches as b')
              .select('b.id')
              .whereRef('b.file_id', '=', 'files.id')
              .where((w) =>
                w.or([
                  w('b.status', '=', 'parsing'),
                  w.and([w('b.status', 'in', ['preview', 'committing']), w('b.parsed_key', 'is', null)]),
                ]),
              ),
          ),
        ),
      ]),
  },
  {
    kind: 'idCard',
    refusedPastQuota: true,
    due: (eb, before) =>
      eb.and([
        older(eb, before),
        eb.not(eb.exists(eb.selectFrom('id_cards as c').select('c.id').whereRef('c.front_file_id', '=', 'files.id'))),
        eb.not(eb.exists(eb.selectFrom('id_cards as c').select('c.id').whereRef('c.back_file_id', '=', 'files.id'))),
      ]),
  },
  {
    kind: 'itemImage',
    refusedPastQuota: true,
    due: (eb, before) =>
      eb.and([
        older(eb, before),
        eb.not(eb.exists(eb.selectFrom('items as i').select('i.id').whereRef('i.image_file_id', '=', 'files.id'))),
      ]),
  },
  {
    kind: 'export-permit',
    refusedPastQuota: false,
    due: (eb, before) =>
      eb.and([
        older(eb, before),
        eb.not(
          eb.exists(
            eb
              .selectFrom('export_declarations as d')
              .select('d.order_id')
              .whereRef('d.permit_file_id', '=', 'files.id'),
          ),
        ),
      ]),
  },
];

const ruleOf = new Map(KEPT_UPLOADS.map((r) => [r.kind, r]));

/** Whether a new file of this kind is refused once its customer's quota is reached. */
export const refusedPastQuota = (kind: string) => ruleOf.get(kind)?.refusedPastQuota ?? false;

/** Due uploads of one rule, after `afterId`, in id order: a page of the sweep. */
export function keptUploadsDue(db: Database, rule: KeptUploadRule, before: string, afterId: number, limit: number) {
  return db
    .selectFrom('files')
    .select(['id', 'storage_key'])
    .where('kind', '=', rule.kind)
    .where('expired_at', 'is', null)
    .where('id', '>', afterId)
    .where((eb) => rule.due(eb, before))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Marks a due upload expired, if it still is (not marked by another sweep, not named meanwhile by
 * a record): whether this call did.
 */
export async function expireKeptUpload(db: Database, rule: KeptUploadRule, id: number, before: string, at: string) {
  const r = await db
    .updateTable('files')
    .set({ expired_at: at })
    .where('id', '=', id)
    .where('kind', '=', rule.kind)
    .where('expired_at', 'is', null)
    .where((eb) => rule.due(eb, before))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
