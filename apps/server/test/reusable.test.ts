import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { reusable } from '../src/db/reusable.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: false });
  await h.db
    .insertInto('order_types')
    .values([
      { code: 'a1', name_zh: '甲', name_en: 'alpha' },
      { code: 'b2', name_zh: '乙', name_en: 'beta' },
      { code: 'c3', name_zh: '丙', name_en: 'gamma' },
    ])
    .execute();
});

type Shape = { order: 'asc' | 'desc'; limit: number };
type Values = { codes?: string[]; nameEn?: string };

describe('reusable queries', () => {
  const built: string[] = [];
  const query = () =>
    reusable(h.db, (shape: Shape, v: Values) => {
      built.push(JSON.stringify(shape));
      let q = h.db.selectFrom('order_types').select('code').where('code', 'in', ['a1', 'b2', 'c3']);
      if (v.codes !== undefined) q = q.where('code', 'in', v.codes);
      if (v.nameEn !== undefined) q = q.where('name_en', '=', v.nameEn);
      return q.orderBy('code', shape.order).limit(sql.lit(shape.limit));
    });

  it('re-binds new values to a shape built once, keeping constants in place', async () => {
    const q = query();
    built.length = 0;
    const codes = async (shape: Shape, v: Values) => (await q.execute(shape, v)).map((r) => r.code);
    expect(await codes({ order: 'asc', limit: 10 }, { codes: ['a1', 'c3'] })).toEqual(['a1', 'c3']);
    expect(await codes({ order: 'asc', limit: 10 }, { codes: ['b2', 'c3'] })).toEqual(['b2', 'c3']);
    expect(await codes({ order: 'asc', limit: 10 }, { codes: ['zz', 'c3'] })).toEqual(['c3']);
    expect(built).toHaveLength(1);
    // Another array length, another value present, another shape: each its own SQL.
    expect(await codes({ order: 'asc', limit: 10 }, { codes: ['b2'] })).toEqual(['b2']);
    expect(await codes({ order: 'desc', limit: 10 }, { codes: ['a1', 'b2'] })).toEqual(['b2', 'a1']);
    expect(await codes({ order: 'desc', limit: 1 }, { codes: ['a1', 'b2'] })).toEqual(['b2']);
    expect(await codes({ order: 'asc', limit: 10 }, { codes: ['a1', 'b2'], nameEn: 'beta' })).toEqual(['b2']);
    expect(await codes({ order: 'asc', limit: 10 }, {})).toEqual(['a1', 'b2', 'c3']);
    expect(built).toHaveLength(6);
    expect(await codes({ order: 'asc', limit: 10 }, { codes: ['c3'], nameEn: 'gamma' })).toEqual(['c3']);
    expect(await codes({ order: 'asc', limit: 10 }, { codes: ['c3'], nameEn: 'beta' })).toEqual([]);
    expect(built).toHaveLength(7);
  });
});
