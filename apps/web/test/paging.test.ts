/**
 * Finding 23 / finding 1: the paging rules every server-paged table shares
 * (components/paged-table). Order List once reset the offset a page turn had just set.
 */
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  applyFilters,
  applyTableChange,
  clampToTotal,
  initialPaging,
  pageOf,
  toRequest,
  type PagingDefaults,
  rangeToDates,
} from '../src/components/paged-table/paging.ts';

const defaults: PagingDefaults = { limit: 20, order: 'desc', sort: 'createdAt' };
const start = () => initialPaging(defaults, { status: 'printed' as string | undefined });

describe('finding 1: paged table state', () => {
  it('a page turn moves the offset and keeps everything else', () => {
    const s = applyTableChange(start(), { action: 'paginate', current: 3, pageSize: 20 }, defaults);
    expect(s).toEqual({ offset: 40, limit: 20, order: 'desc', sort: 'createdAt', filters: { status: 'printed' } });
    expect(pageOf(s)).toBe(3);
  });

  it('a page-size change takes the new size and starts at page 1', () => {
    const on3 = applyTableChange(start(), { action: 'paginate', current: 3, pageSize: 20 }, defaults);
    const s = applyTableChange(on3, { action: 'paginate', current: 3, pageSize: 50 }, defaults);
    expect(s.limit).toBe(50);
    expect(s.offset).toBe(0);
    expect(toRequest(s)).toMatchObject({ offset: 0, limit: 50 });
  });

  it('a sort starts at page 1, keeps the filters and the page size; clearing it returns to the default sort', () => {
    let s = applyTableChange(start(), { action: 'paginate', current: 2, pageSize: 50 }, defaults);
    s = applyTableChange(s, { action: 'sort', sortKey: 'orderNo', sortOrder: 'ascend' }, defaults);
    expect(s).toEqual({ offset: 0, limit: 50, order: 'asc', sort: 'orderNo', filters: { status: 'printed' } });
    // Paging after sorting keeps the sort.
    s = applyTableChange(s, { action: 'paginate', current: 2, pageSize: 50 }, defaults);
    expect(toRequest(s)).toEqual({ offset: 50, limit: 50, order: 'asc', sort: 'orderNo', status: 'printed' });
    s = applyTableChange(s, { action: 'sort', sortKey: 'orderNo', sortOrder: null }, defaults);
    expect(s).toMatchObject({ offset: 0, order: 'desc', sort: 'createdAt' });
  });

  it('new filters start at page 1 and keep the sort and the page size', () => {
    let s = applyTableChange(start(), { action: 'sort', sortKey: 'status', sortOrder: 'descend' }, defaults);
    s = applyTableChange(s, { action: 'paginate', current: 4, pageSize: 20 }, defaults);
    s = applyTableChange(s, { action: 'paginate', current: 4, pageSize: 100 }, defaults);
    s = applyTableChange(s, { action: 'paginate', current: 2, pageSize: 100 }, defaults);
    s = applyFilters(s, { status: 'created' });
    expect(s).toEqual({ offset: 0, limit: 100, order: 'desc', sort: 'status', filters: { status: 'created' } });
  });

  it('the request leaves out empty filters and has no sort for calls without one', () => {
    const s = initialPaging({ limit: 20, order: 'desc' }, { keyword: '', unread: undefined, channel: 'JP' });
    expect(toRequest(s)).toEqual({ offset: 0, limit: 20, order: 'desc', channel: 'JP' });
  });

  it('a page emptied by deletes steps back to the last page that has rows', () => {
    const on3 = applyTableChange(start(), { action: 'paginate', current: 3, pageSize: 20 }, defaults);
    expect(clampToTotal(on3, 41)).toBe(on3);
    expect(clampToTotal(on3, 40).offset).toBe(20);
    expect(clampToTotal(on3, 0).offset).toBe(0);
  });
});

describe('rangeToDates (every filter bar with a date range)', () => {
  it('sends the picked days as YYYY-MM-DD, whatever the time of day picked', () => {
    expect(rangeToDates([dayjs('2026-01-05T23:59:00'), dayjs('2026-02-01T00:00:00')])).toEqual({
      dateFrom: '2026-01-05',
      dateTo: '2026-02-01',
    });
  });
  it('sends no dates for no range, and only the end that was picked', () => {
    expect(rangeToDates(undefined)).toEqual({ dateFrom: undefined, dateTo: undefined });
    expect(rangeToDates(null)).toEqual({ dateFrom: undefined, dateTo: undefined });
    expect(rangeToDates([null, dayjs('2026-03-09')])).toEqual({ dateFrom: undefined, dateTo: '2026-03-09' });
  });
});
