/**
 * What other modules use of notices: a module reaches another only through its index.ts (eslint
 * import-x zones, docs/decisions/2026-11-27-import-layering-lint.md).
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { createNotificationsRepository } from './notifications.repository.ts';

/**
 * A notice for one user only (webhooks: their endpoint was disabled), in the caller's transaction.
 * It never blocks ordering (`must_agree` 0): it informs.
 */
export async function noticeForUser(
  trx: Transaction<DB>,
  n: { userId: number; title: { zh: string; en: string }; content: { zh: string; en: string }; at: string },
) {
  await createNotificationsRepository(trx).insert({
    title_zh: n.title.zh,
    title_en: n.title.en,
    content_zh: n.content.zh,
    content_en: n.content.en,
    must_agree: 0,
    published_at: n.at,
    created_by: null,
    user_id: n.userId,
  });
}
