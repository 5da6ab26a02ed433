import { ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';
import { createNotificationsRepository } from './notifications.repository.ts';

type Row = {
  id: number;
  title_zh: string;
  title_en: string;
  must_agree: number;
  published_at: string;
  read_at: string | null;
  agreed_at: string | null;
};
const summary = (r: Row) => ({
  id: r.id,
  title: { zh: r.title_zh, en: r.title_en },
  publishedAt: r.published_at,
  mustAgree: r.must_agree === 1,
  read: r.read_at !== null,
  agreed: r.agreed_at !== null,
});

export function createNotificationsService(db: Database, clock: () => Date) {
  const repo = createNotificationsRepository(db);
  const now = () => clock().toISOString();
  return {
    async page(actor: Actor, p: Parameters<typeof repo.page>[1]) {
      const { total, list } = await repo.page(actor.userId, p);
      return { total, list: list.map(summary) };
    },
    async info(actor: Actor, id: number) {
      const row = await repo.find(actor.userId, id);
      if (!row) throw AppError.noData();
      await repo.markRead(actor.userId, id, now());
      return {
        ...summary({ ...row, read_at: row.read_at ?? now() }),
        content: { zh: row.content_zh, en: row.content_en },
      };
    },
    async check(actor: Actor) {
      const rows = await repo.blocking(actor.userId);
      return { blocking: rows.length > 0, notices: rows.map(summary) };
    },
    /** Ordering calls call this first (spec §5: unread notices must be read and agreed). */
    async assertClear(actor: Actor) {
      const rows = await repo.blocking(actor.userId);
      if (rows.length > 0) {
        throw new AppError(ErrorCode.NOTICES_PENDING, 'noticesPending', { notices: rows.map(summary) });
      }
    },
    async agree(actor: Actor, id: number) {
      const r = await repo.agree(actor.userId, id, now());
      if (Number(r.numUpdatedRows) === 0) throw AppError.field('id', 'noticeNotRead');
      return null;
    },
    async message(actor: Actor) {
      const [unread, latest] = await Promise.all([
        repo.unreadCount(actor.userId),
        repo.page(actor.userId, { offset: 0, limit: 5, order: 'desc' }),
      ]);
      return { unread, latest: latest.list.map(summary) };
    },
    /** A notice reaches every user (and may block their ordering): audited with its change. */
    async publish(
      who: AuditWho & { actor: Actor },
      n: { title: { zh: string; en: string }; content: { zh: string; en: string }; mustAgree: boolean },
    ) {
      return db.transaction().execute(async (trx) => {
        const id = await createNotificationsRepository(trx).insert({
          title_zh: n.title.zh,
          title_en: n.title.en,
          content_zh: n.content.zh,
          content_en: n.content.en,
          must_agree: n.mustAgree ? 1 : 0,
          published_at: now(),
          created_by: who.actor.userId,
        });
        await audit(
          trx,
          who,
          { action: 'notice.publish', target: `notice:${id}`, detail: { title: n.title.en, mustAgree: n.mustAgree } },
          clock(),
        );
        return { id };
      });
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
