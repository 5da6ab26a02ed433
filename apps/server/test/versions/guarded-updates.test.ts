import { beforeAll, describe, expect, it } from 'vitest';
import { createItemsRepository } from '../../src/modules/items/items.repository.ts';
import { createOrdersRepository, DELETABLE_STATUSES } from '../../src/modules/orders/orders.repository.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * Issue 36 #14: the "sent together" race tests answer through the service's check before the
 * write on SQLite (one writer: the second request reads after the first committed), so removing
 * the version or status condition from the guarded UPDATE left every SQLite test green; only
 * PostgreSQL's truly interleaved requests caught it. Here the guarded writes themselves are given
 * a stale version or a status they must not touch, on both databases, and must change nothing.
 */
let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});

const anOrder = (status: string) =>
  h.db
    .selectFrom('orders')
    .select(['id', 'version', 'updated_at'])
    .where('status', '=', status)
    .where('intercepted', '=', 0)
    .orderBy('id')
    .executeTakeFirstOrThrow();

describe('the orders claim', () => {
  it('claims an order at its version and status, and not at another version', async () => {
    const repo = createOrdersRepository(h.db);
    const o = await anOrder('created');
    const at = new Date().toISOString();
    const guard = { statuses: DELETABLE_STATUSES };
    expect(await h.db.transaction().execute((trx) => repo.claim(trx, [o.id], guard, at, o.version + 1))).toEqual([]);
    expect(await h.db.transaction().execute((trx) => repo.claim(trx, [o.id], guard, at, o.version))).toEqual([o.id]);
  });

  it('does not claim an order whose status the guard leaves out', async () => {
    const repo = createOrdersRepository(h.db);
    const o = await anOrder('shipped');
    const at = new Date().toISOString();
    expect(
      await h.db.transaction().execute((trx) => repo.claim(trx, [o.id], { statuses: DELETABLE_STATUSES }, at)),
    ).toEqual([]);
    const after = await h.db.selectFrom('orders').select('updated_at').where('id', '=', o.id).executeTakeFirstOrThrow();
    expect(after.updated_at).toEqual(o.updated_at);
  });
});

describe('the items update', () => {
  it('changes an item at its version and status only', async () => {
    const repo = createItemsRepository(h.db);
    const item = await h.db
      .selectFrom('items')
      .select(['id', 'version', 'status', 'name_en'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(await repo.update(h.db, item.id, { name_en: 'stale' }, undefined, item.version + 1)).toBe(false);
    expect(await repo.update(h.db, item.id, { name_en: 'other status' }, `${item.status}-not`)).toBe(false);
    const still = await h.db.selectFrom('items').select('name_en').where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(still.name_en).toBe(item.name_en);
    expect(await repo.update(h.db, item.id, { name_en: 'current' }, item.status, item.version)).toBe(true);
  });
});
