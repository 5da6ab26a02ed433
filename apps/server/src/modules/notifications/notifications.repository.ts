import type { Database } from '../../db/database.ts';
import { ilike, likeContaining, likeSql } from '../../db/dialect.ts';

export function createNotificationsRepository(db: Database) {
  const base = (userId: number) =>
    db
      .selectFrom('notices as n')
      .leftJoin('notice_reads as r', (j) => j.onRef('r.notice_id', '=', 'n.id').on('r.user_id', '=', userId))
      .select(['n.id', 'n.title_zh', 'n.title_en', 'n.must_agree', 'n.published_at', 'r.read_at', 'r.agreed_at'])
      // A notice for one user (a webhook endpoint of theirs disabled) reaches only them.
      .where((eb) => eb.or([eb('n.user_id', 'is', null), eb('n.user_id', '=', userId)]));

  return {
    async page(
      userId: number,
      p: { offset: number; limit: number; order: 'asc' | 'desc'; unread?: boolean; keyword?: string },
    ) {
      let q = base(userId);
      if (p.unread) q = q.where('r.read_at', 'is', null);
      if (p.keyword) {
        const like = likeContaining(p.keyword);
        const op = ilike(db);
        const cols = ['n.title_zh', 'n.title_en', 'n.content_zh', 'n.content_en'];
        q = q.where((eb) => eb.or(cols.map((c) => likeSql(c, op, like))));
      }
      const { total } = await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      const list = await q
        .orderBy('n.published_at', p.order)
        .orderBy('n.id', p.order)
        .offset(p.offset)
        .limit(p.limit)
        .execute();
      return { total: Number(total), list };
    },
    find(userId: number, id: number) {
      return base(userId).select(['n.content_zh', 'n.content_en']).where('n.id', '=', id).executeTakeFirst();
    },
    async markRead(userId: number, noticeId: number, now: string) {
      await db
        .insertInto('notice_reads')
        .values({ notice_id: noticeId, user_id: userId, read_at: now })
        .onConflict((oc) => oc.columns(['notice_id', 'user_id']).doNothing())
        .execute();
    },
    agree(userId: number, noticeId: number, now: string) {
      return db
        .updateTable('notice_reads')
        .set({ agreed_at: now })
        .where('notice_id', '=', noticeId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },
    /** Notices that block ordering: unread ones, and must-agree ones not agreed. */
    blocking(userId: number) {
      return base(userId)
        .where((eb) =>
          eb.or([eb('r.read_at', 'is', null), eb.and([eb('n.must_agree', '=', 1), eb('r.agreed_at', 'is', null)])]),
        )
        .orderBy('n.published_at', 'desc')
        .execute();
    },
    async unreadCount(userId: number) {
      const r = await base(userId)
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('r.read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insert(n: {
      title_zh: string;
      title_en: string;
      content_zh: string;
      content_en: string;
      must_agree: number;
      published_at: string;
      created_by: number | null;
      /** For this user only; null or left out: for everyone. */
      user_id?: number | null;
    }) {
      const row = await db.insertInto('notices').values(n).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },
  };
}
