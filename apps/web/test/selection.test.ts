/**
 * The selection rule of paged tables (docs/decisions/2026-11-27-selection-follows-the-query.md):
 * a selection lasts while the user pages through one query's answer and ends with a new query.
 */
import { describe, expect, it } from 'vitest';
import {
  applyFilters,
  applyTableChange,
  initialPaging,
  type PagingDefaults,
} from '../src/components/paged-table/paging.ts';
import { nextSelection, selectionScope } from '../src/components/paged-table/selection.ts';

const defaults: PagingDefaults = { limit: 20, order: 'desc', sort: 'createdAt' };
const start = () => initialPaging(defaults, { status: 'printed' } as Record<string, unknown>);

describe('selectionScope: what a selection belongs to', () => {
  it('a page turn and a page-size change keep it (bulk actions span pages)', () => {
    const s = start();
    const p3 = applyTableChange(s, { action: 'paginate', current: 3, pageSize: 20 }, defaults);
    const big = applyTableChange(p3, { action: 'paginate', current: 1, pageSize: 100 }, defaults);
    expect(selectionScope(p3, 0)).toBe(selectionScope(s, 0));
    expect(selectionScope(big, 0)).toBe(selectionScope(s, 0));
  });

  it('another filter, a sort, or clearing the filters (重置) ends it', () => {
    const s = start();
    const scope = selectionScope(s, 0);
    expect(selectionScope(applyFilters(s, { status: 'shipped' }), 0)).not.toBe(scope);
    expect(selectionScope(applyFilters(s, {}), 0)).not.toBe(scope);
    const sorted = applyTableChange(s, { action: 'sort', sortKey: 'orderNo', sortOrder: 'ascend' }, defaults);
    expect(selectionScope(sorted, 0)).not.toBe(scope);
    const reversed = applyTableChange(s, { action: 'sort', sortKey: 'createdAt', sortOrder: 'ascend' }, defaults);
    expect(selectionScope(reversed, 0)).not.toBe(scope);
  });

  it('查询 with the same filters is a new answer: it ends it too', () => {
    const s = start();
    expect(selectionScope(applyFilters(s, { status: 'printed' }), 1)).not.toBe(selectionScope(s, 0));
  });

  it('the same filters read back from the address (other key order, undefined values) keep it', () => {
    const a = initialPaging(defaults, { status: 'printed', channel: 'JP', numbers: undefined } as Record<
      string,
      unknown
    >);
    const b = initialPaging(defaults, { channel: 'JP', status: 'printed' } as Record<string, unknown>);
    expect(selectionScope(a, 0)).toBe(selectionScope(b, 0));
  });
});

describe('nextSelection: the rows behind antd’s keys', () => {
  type Row = { id: number; no: string };
  const r = (id: number): Row => ({ id, no: `N${id}` });
  const key = (x: Row) => x.id;

  it('keeps rows of other pages antd reports only by key, adds the new ones, in the keys’ order', () => {
    const onPage1 = [r(1), r(2)];
    // On page 2: antd reports the page-1 keys with undefined rows (not on screen) and the new row.
    expect(nextSelection(onPage1, [1, 2, 7], [undefined, undefined, r(7)], key)).toEqual([r(1), r(2), r(7)]);
  });

  it('an unticked row leaves; a key with no row known is not invented', () => {
    expect(nextSelection([r(1), r(2)], [2, 9], [undefined, undefined], key)).toEqual([r(2)]);
  });
});
