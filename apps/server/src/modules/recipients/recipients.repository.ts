import { pageOf } from '../../db/paged.ts';
import type { recipients as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { ilike, likeContaining, likeSql } from '../../db/dialect.ts';
import type { RecipientsTable } from '../../db/schema-meituan.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

export type RecipientValues = Omit<RecipientsTable, 'id' | 'customer_id' | 'created_at' | 'updated_at'>;

/** SQL of the recipient address book; every statement goes through the caller's scope. */
export function createRecipientsRepository(db: Database) {
  const like = ilike(db);
  const base = (scope: Scope) =>
    inScope(
      db.selectFrom('recipients as r').innerJoin('customers as c', 'c.id', 'r.customer_id'),
      'r.customer_id',
      scope,
    );
  const columns = [
    'r.id',
    'r.customer_id',
    'c.code as customer_code',
    'r.name',
    'r.id_card',
    'r.phone',
    'r.email',
    'r.province',
    'r.city',
    'r.district',
    'r.street',
    'r.address',
    'r.postcode',
    'r.created_at',
    'r.updated_at',
  ] as const;

  return {
    async page(scope: Scope, f: C.RecipientListRequest) {
      let q = base(scope);
      if (f.customerId) q = q.where('r.customer_id', '=', f.customerId);
      if (f.keyword) {
        const p = likeContaining(f.keyword);
        q = q.where((eb) =>
          eb.or([likeSql('r.name', like, p), likeSql('r.phone', 'like', p), likeSql('r.address', like, p)]),
        );
      }
      return pageOf(
        q,
        (q) =>
          q
            .select(columns)
            .orderBy(f.sort === 'name' ? 'r.name' : 'r.created_at', f.order)
            .orderBy('r.id', f.order),
        f,
      );
    },

    find: (scope: Scope, id: number) => base(scope).where('r.id', '=', id).select(columns).executeTakeFirst(),

    insert: (customerId: number, v: RecipientValues, at: string) =>
      db
        .insertInto('recipients')
        .values({ ...v, customer_id: customerId, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow(),

    async update(scope: Scope, id: number, v: RecipientValues, at: string) {
      const r = await inScope(db.updateTable('recipients'), 'customer_id', scope)
        .set({ ...v, updated_at: at })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async remove(scope: Scope, id: number) {
      const r = await inScope(db.deleteFrom('recipients'), 'customer_id', scope)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
export type RecipientRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createRecipientsRepository>['find']>>>;
