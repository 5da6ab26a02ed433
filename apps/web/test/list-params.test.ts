/**
 * Issue 28, item 15: a paged list's state lives in its tab's URL. The address a list writes
 * must read back as the same list, defaults stay out of it, and a pasted address the call
 * would refuse falls back to the defaults rather than reaching the server.
 */
import { batches, orders } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { parseListParams, writeListParams, type ListParamsSpec } from '../src/components/paged-table/list-params.ts';
import { initialPaging, type PagedState } from '../src/components/paged-table/paging.ts';
import { filtersToForm } from '../src/components/paged-table/useFilterForm.ts';

const orderList: ListParamsSpec = {
  schema: orders.orderList.request,
  defaults: { limit: 20, order: 'desc', sort: 'createdAt' },
  links: { batchNo: (numbers) => ({ noType: 'batchNo', numbers }) },
};
const batchList: ListParamsSpec = { schema: batches.batches.request, defaults: { limit: 20, order: 'desc' } };
type Any = Record<string, unknown>;

describe('list state in the URL', () => {
  it('a clean list has a clean URL, and a clean URL is the default list', () => {
    const clean = initialPaging<Any>(orderList.defaults, {});
    expect(writeListParams('', clean, orderList)).toBe('');
    expect(parseListParams('', orderList)).toEqual(clean);
  });

  it('page, size, sort and filters read back as the same list, with short readable keys', () => {
    const state: PagedState<Any> = {
      offset: 100,
      limit: 50,
      order: 'asc',
      sort: 'orderNo',
      filters: { status: 'printed', intercepted: false, printFlag: true, dateFrom: '2026-11-01', dateTo: '2026-11-27' },
    };
    const search = writeListParams('', state, orderList);
    expect(search).toBe(
      '?offset=100&limit=50&sort=orderNo&order=asc&status=printed&intercepted=false&printFlag=true&dateFrom=2026-11-01&dateTo=2026-11-27',
    );
    expect(parseListParams(search, orderList)).toEqual(state);
  });

  it('numbers and lists come back as the types the call takes', () => {
    const state: PagedState<Any> = { ...initialPaging(batchList.defaults, {}), filters: { customerId: 7 } };
    const search = writeListParams('', state, batchList);
    expect(search).toBe('?customerId=7');
    expect(parseListParams(search, batchList).filters).toEqual({ customerId: 7 });
  });

  it('keys that are not the list’s are kept; the list’s own are replaced', () => {
    const next: PagedState<Any> = { ...initialPaging(orderList.defaults, {}), offset: 40 };
    expect(writeListParams('?id=12&offset=20&status=printed', next, orderList)).toBe('?id=12&offset=40');
  });

  it('a second list on the page keeps its keys apart', () => {
    const spec = { ...batchList, prefix: 'msg' };
    const next: PagedState<Any> = { ...initialPaging(batchList.defaults, {}), offset: 20 };
    const search = writeListParams('?offset=40', next, spec);
    expect(search).toBe('?offset=40&msg.offset=20');
    expect(parseListParams(search, spec).offset).toBe(20);
    expect(parseListParams(search, batchList).offset).toBe(40);
  });

  it('values a pasted URL holds that the call refuses fall back to the defaults', () => {
    const s = parseListParams<Any>(
      '?offset=-5&limit=7&sort=DROP%20TABLE&order=up&status=lost&intercepted=maybe&dateFrom=yesterday&channel=JP',
      orderList,
    );
    expect(s).toEqual({ offset: 0, limit: 20, order: 'desc', sort: 'createdAt', filters: { channel: 'JP' } });
    expect(parseListParams('?offset=abc&limit=&offset=1e400', orderList).offset).toBe(0);
  });

  it('an offset off a page boundary goes to the page holding it', () => {
    expect(parseListParams('?offset=45&limit=20', orderList).offset).toBe(40);
  });

  it('a link’s short key stands for its filters, and the next change writes them instead', () => {
    const s = parseListParams<Any>('?batchNo=B100', orderList);
    expect(s.filters).toEqual({ noType: 'batchNo', numbers: 'B100' });
    expect(writeListParams('?batchNo=B100', { ...s, offset: 20 }, orderList)).toBe(
      '?offset=20&noType=batchNo&numbers=B100',
    );
  });

  it('fixed filters (the record a table is of) are sent but never written', () => {
    const spec: ListParamsSpec = { ...batchList, fixed: { customerId: 3 } };
    const s = parseListParams<Any>('?customerId=9', spec);
    expect(s.filters).toEqual({ customerId: 3 });
    expect(writeListParams('?id=3', s, spec)).toBe('?id=3');
  });

  it('a date pair shows in the form as its range picker', () => {
    const v = filtersToForm({ status: 'done', from: '2026-11-01', to: '2026-11-27' });
    expect(Object.keys(v)).toEqual(['status', 'range']);
    const range = v.range as { format(f: string): string }[];
    expect(range.map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-11-01', '2026-11-27']);
  });
});
