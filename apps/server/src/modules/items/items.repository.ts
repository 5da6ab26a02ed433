import { pageOf } from '../../db/paged.ts';
import type { items as C } from '@console/contract';
import { type Kysely, sql, type Transaction } from 'kysely';
import { type Database, readOffLoop } from '../../db/database.ts';
import { dialectOf, ilike, likeContaining, likeSql, likeStartingWith } from '../../db/dialect.ts';
import type { DB } from '../../db/schema.ts';
import type { ItemsTable } from '../../db/schema-items.ts';
import { versionedCache } from '../../db/versioned-cache.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { chinaDayStart } from '../orders/index.ts';
import { rowsInOrder } from '../../db/rows-in-order.ts';

/** SQL of the item catalogue; every query of tenant rows goes through `inScope`. */
export type Db = Kysely<DB> | Transaction<DB>;
export type ItemRecord = Omit<ItemsTable, 'id' | 'version'> & {
  id: number;
  version: number;
  customer_code: string;
  pending_adjustments: number;
};
export type ItemValues = Omit<ItemsTable, 'id' | 'created_by' | 'created_at' | 'customer_id' | 'status' | 'reason'>;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const SORT = {
  createdAt: 'i.created_at',
  updatedAt: 'i.updated_at',
  jan: 'i.jan',
  nameZh: 'i.name_zh',
  status: 'i.status',
} as const;

export function createItemsRepository(db: Database, opts: { readCacheEntries?: number } = {}) {
  const like = ilike(db);
  // A filter's total is the same for its every page, sort and page size, and counting is most
  // of a list call (a customer's 40,000 items: 1 ms bare, 5–10 ms with a name or a category):
  // kept per scope and filter while nothing is committed (db/versioned-cache.ts).
  const counts = versionedCache<number>(db, opts.readCacheEntries ?? 0);
  const sqlite = dialectOf(db) === 'sqlite';
  const base = (q: Db) =>
    q
      .selectFrom('items as i')
      .innerJoin('customers as c', 'c.id', 'i.customer_id')
      .selectAll('i')
      .select('c.code as customer_code')
      .select((eb) =>
        eb
          .selectFrom('item_adjustments as a')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('a.item_id', '=', 'i.id')
          .where('a.status', '=', 'pending')
          .as('pending_adjustments'),
      );

  return {
    async list(scope: Scope, f: C.ItemListRequest): Promise<{ total: number; rows: ItemRecord[] }> {
      // On SQLite, the scope of several customers and the status are marked likely (true for
      // most rows): otherwise the planner trusts their indexes, fetches every matching row
      // (70,000 approved items) and sorts them, 50–90 ms, where reading the sort's or the
      // other filter's index and checking each row stops after the page (bench:items).
      let q = inScope(db.selectFrom('items as i'), 'i.customer_id', scope, sqlite);
      if (f.customerId) q = q.where('i.customer_id', '=', f.customerId);
      if (f.status) {
        const status = f.status;
        q = q.where((eb) =>
          sqlite ? sql<boolean>`likely(${eb.ref('i.status')} = ${status})` : eb('i.status', '=', status),
        );
      }
      if (f.jan) {
        q = q.where(likeSql('i.jan', 'like', likeStartingWith(f.jan)));
        // SQLite's LIKE is case-insensitive, so it never reads an index: a JAN prefix read the
        // customer's every item (170 ms at 40,000). JANs are digits, and a prefix of digits is
        // also the range [prefix, prefix + ':') (':' follows '9') in SQLite's byte order, which
        // the (customer_id, jan) index serves; the LIKE stays and decides. Not on PostgreSQL,
        // whose collation may order ':' otherwise.
        if (sqlite && /^\d+$/.test(f.jan)) q = q.where('i.jan', '>=', f.jan).where('i.jan', '<', `${f.jan}:`);
      }
      if (f.name) {
        const p = likeContaining(f.name);
        q = q.where((eb) => eb.or(['i.name_zh', 'i.name_en', 'i.name_ja'].map((c) => likeSql(c, like, p))));
      }
      if (f.brandId) q = q.where('i.brand_id', '=', f.brandId);
      if (f.partId) q = q.where('i.part_id', '=', f.partId);
      if (f.group) q = q.where('i.group_name', '=', f.group);
      if (f.categoryId) {
        const categoryId = f.categoryId;
        q = q.where('i.category_id', 'in', (eb) =>
          eb
            .selectFrom('item_categories as k')
            .select('k.id')
            .where(
              'k.path',
              'like',
              eb
                .selectFrom('item_categories as r')
                .select(sql<string>`r.path || '%'`.as('p'))
                .where('r.id', '=', categoryId),
            ),
        );
      }
      if (f.hasPendingAdjustment !== undefined) {
        const exists = (eb: any) =>
          eb.exists(
            eb
              .selectFrom('item_adjustments as a')
              .select('a.id')
              .whereRef('a.item_id', '=', 'i.id')
              .where('a.status', '=', 'pending'),
          );
        q = q.where((eb) => (f.hasPendingAdjustment ? exists(eb) : eb.not(exists(eb))));
      }
      if (f.dateFrom) q = q.where('i.created_at', '>=', chinaDayStart(f.dateFrom));
      if (f.dateTo) q = q.where('i.created_at', '<', chinaDayStart(nextDay(f.dateTo)));

      const { offset: _o, limit: _l, sort: _s, order: _d, ...filter } = f;
      // The count and the page's ids are the reads a filter can make long (a name search scans
      // the scope): on SQLite they run on a reader thread, not on the event loop (readOffLoop).
      const n = await counts(JSON.stringify([scope, filter]), async () => {
        const [r] = await readOffLoop(db, q.select((eb) => eb.fn.countAll<number>().as('n')).compile());
        return Number(r!.n);
      });
      const ids = await readOffLoop(
        db,
        q
          .select('i.id')
          .orderBy(SORT[f.sort as keyof typeof SORT], f.order)
          .orderBy('i.id', f.order)
          .offset(f.offset)
          .limit(f.limit)
          .compile(),
      );
      const rows = await rowsInOrder(
        ids,
        async (page) => (await base(db).where('i.id', 'in', page).execute()) as ItemRecord[],
      );
      return { total: n, rows: rows.map(numeric) };
    },

    async find(q: Db, scope: Scope, id: number): Promise<ItemRecord | undefined> {
      const row = await inScope(base(q).where('i.id', '=', id), 'i.customer_id', scope).executeTakeFirst();
      return row ? numeric(row as ItemRecord) : undefined;
    },

    async insert(q: Db, values: Omit<ItemsTable, 'id' | 'version'>): Promise<number> {
      const r = await q.insertInto('items').values(values).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },

    /** Sets values; with `fromStatus`, only while the item is still in that status (answers whether it was). */
    async update(
      q: Db,
      id: number,
      values: Partial<Omit<ItemsTable, 'id' | 'version'>>,
      fromStatus?: string,
      /** Only while the item is still at the version an edit form was loaded from. */
      version?: number,
    ): Promise<boolean> {
      let u = q.updateTable('items').set(values).where('id', '=', id);
      if (fromStatus) u = u.where('status', '=', fromStatus);
      if (version !== undefined) u = u.where('version', '=', version);
      const r = await u.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async addEvent(
      q: Db,
      e: {
        item_id: number;
        kind: string;
        user_id: number;
        note: string | null;
        status: string;
        changes: unknown[];
        at: string;
      },
    ) {
      await q
        .insertInto('item_events')
        .values({ ...e, changes: JSON.stringify(e.changes) })
        .execute();
    },

    events(itemId: number) {
      return db
        .selectFrom('item_events as e')
        .innerJoin('users as u', 'u.id', 'e.user_id')
        .select(['e.id', 'e.kind', 'e.note', 'e.status', 'e.changes', 'e.at', 'u.display_name', 'u.role'])
        .where('e.item_id', '=', itemId)
        .orderBy('e.id', 'asc')
        .execute();
    },

    adjustmentsQuery(q: Db) {
      return q
        .selectFrom('item_adjustments as a')
        .innerJoin('items as i', 'i.id', 'a.item_id')
        .innerJoin('customers as c', 'c.id', 'a.customer_id')
        .innerJoin('users as by', 'by.id', 'a.adjusted_by')
        .leftJoin('users as dec', 'dec.id', 'a.decided_by')
        .selectAll('a')
        .select([
          'c.code as customer_code',
          'i.jan',
          'i.name_zh',
          'by.display_name as adjusted_by_name',
          'dec.display_name as decided_by_name',
        ]);
    },

    async adjustments(
      scope: Scope,
      f: {
        offset: number;
        limit: number;
        order: 'asc' | 'desc';
        status?: string;
        itemId?: number;
        customerId?: number;
        jan?: string;
      },
    ) {
      let q = inScope(
        db.selectFrom('item_adjustments as a').innerJoin('items as i', 'i.id', 'a.item_id'),
        'a.customer_id',
        scope,
      );
      if (f.status) q = q.where('a.status', '=', f.status);
      if (f.itemId) q = q.where('a.item_id', '=', f.itemId);
      if (f.customerId) q = q.where('a.customer_id', '=', f.customerId);
      if (f.jan) q = q.where(likeSql('i.jan', 'like', likeStartingWith(f.jan)));
      const { total, rows: page } = await pageOf(q, (q) => q.select('a.id').orderBy('a.id', f.order), f);
      const ids = page.map((r) => r.id);
      const rows = ids.length ? await this.adjustmentsQuery(db).where('a.id', 'in', ids).execute() : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      return { total, rows: ids.map((id) => byId.get(id)!) };
    },

    findAdjustment(q: Db, scope: Scope, id: number) {
      return inScope(this.adjustmentsQuery(q).where('a.id', '=', id), 'a.customer_id', scope).executeTakeFirst();
    },

    adjustmentsOfItem(itemId: number) {
      return this.adjustmentsQuery(db).where('a.item_id', '=', itemId).orderBy('a.id', 'asc').execute();
    },

    async openAdjustment(q: Db, itemId: number) {
      return q
        .selectFrom('item_adjustments')
        .select('id')
        .where('item_id', '=', itemId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
    },

    async insertAdjustment(
      q: Db,
      v: {
        item_id: number;
        customer_id: number;
        changes: unknown[];
        note: string | null;
        adjusted_by: number;
        adjusted_at: string;
      },
    ): Promise<number> {
      const r = await q
        .insertInto('item_adjustments')
        .values({ ...v, status: 'pending', changes: JSON.stringify(v.changes) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },

    /** Decides a pending adjustment; false when it was no longer pending (someone else decided first). */
    async decideAdjustment(
      q: Db,
      id: number,
      v: { status: string; decided_by: number; decided_at: string; decision_note: string | null },
    ): Promise<boolean> {
      const r = await q
        .updateTable('item_adjustments')
        .set(v)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async supersedeAdjustments(q: Db, itemId: number, at: string, by: number) {
      await q
        .updateTable('item_adjustments')
        .set({ status: 'superseded', decided_at: at, decided_by: by })
        .where('item_id', '=', itemId)
        .where('status', '=', 'pending')
        .execute();
    },

    /** The customer's item of a JAN (one per customer and JAN), or undefined. */
    idByJan(customerId: number, jan: string) {
      return db
        .selectFrom('items')
        .select(['id'])
        .where('customer_id', '=', customerId)
        .where('jan', '=', jan)
        .executeTakeFirst();
    },
    /** An image still stored: one the retention removed (never used by an item, lib/files.retention.ts) is none. */
    image(id: number) {
      return db
        .selectFrom('files')
        .select(['id', 'customer_id', 'mime', 'storage_key', 'name'])
        .where('id', '=', id)
        .where('kind', '=', 'itemImage')
        .where('expired_at', 'is', null)
        .executeTakeFirst();
    },

    async reference() {
      const [parts, brands, categories, exportCategories, taxes] = await Promise.all([
        db.selectFrom('item_parts').selectAll().orderBy('id').execute(),
        db.selectFrom('item_brands').selectAll().orderBy('id').execute(),
        db.selectFrom('item_categories').selectAll().orderBy('id').execute(),
        db.selectFrom('item_export_categories').selectAll().orderBy('code').execute(),
        db.selectFrom('item_taxes').selectAll().orderBy('code').execute(),
      ]);
      return { parts, brands, categories, exportCategories, taxes };
    },
  };
}

const numeric = (r: ItemRecord): ItemRecord => ({
  ...r,
  pending_adjustments: Number(r.pending_adjustments),
  net_weight_g: Number(r.net_weight_g),
});

export type ItemsRepository = ReturnType<typeof createItemsRepository>;
