import { describe, expect, it } from 'vitest';
import { mergeRecords } from './merge.ts';

const order = {
  version: 3,
  remark: null as string | null,
  userRefNo: 'R1',
  recipient: { name: 'A', address: 'old', phone: '1' },
  items: [{ id: 7, name: 'x', quantity: 1 }],
  channels: ['a', 'b'],
};

describe('mergeRecords', () => {
  it('keeps mine where only I changed, takes theirs where only they changed, mine wins where both did', () => {
    const mine = { ...order, remark: 'mine', userRefNo: 'R-mine', recipient: { ...order.recipient, phone: '2' } };
    const theirs = {
      ...order,
      version: 4,
      userRefNo: 'R-theirs',
      recipient: { ...order.recipient, address: 'new' },
    };
    const r = mergeRecords(order, mine, theirs);
    expect(r.merged).toEqual({
      ...order,
      remark: 'mine',
      userRefNo: 'R-mine',
      recipient: { name: 'A', address: 'new', phone: '2' },
      // Outside what the form shows (here everything is) the caller sets the version.
      version: 4,
    });
    expect(r.mine).toEqual(['remark', 'recipient.phone']);
    expect(r.theirs).toEqual(['version', 'recipient.address']);
    expect(r.both).toEqual(['userRefNo']);
  });

  it('compares lists and nested values by value, a list as one field', () => {
    // Fresh copies equal in value are no change; empty, null and missing are one value; 1 is '1'.
    const mine = {
      ...order,
      remark: '',
      items: [{ id: 7, name: 'x', quantity: '1' }],
      channels: ['a', 'b'],
    };
    const theirs = {
      ...order,
      items: [
        { id: 7, name: 'x', quantity: 1 },
        { id: 8, name: 'y', quantity: 2 },
      ],
    };
    const r = mergeRecords(order, mine, theirs);
    expect(r.merged.items).toEqual(theirs.items);
    expect(r.merged.channels).toBe(mine.channels);
    expect(r).toMatchObject({ mine: [], theirs: ['items'], both: [] });

    // Both changed the list (different rows): one conflict, mine wins whole.
    const mine2 = { ...order, items: [{ id: 7, name: 'x', quantity: 5 }], channels: ['a'] };
    const r2 = mergeRecords(order, mine2, theirs);
    expect(r2.merged.items).toBe(mine2.items);
    expect(r2).toMatchObject({ mine: ['channels'], theirs: [], both: ['items'] });

    // Both made the same change: neither kept nor overwritten, nothing to name.
    const same = { ...order, channels: ['c'] };
    expect(mergeRecords(order, same, { ...order, channels: ['c'] })).toMatchObject({ mine: [], theirs: [], both: [] });
  });

  it('merges only the fields the form shows; the rest of the form stays mine', () => {
    const fields = ['remark', 'recipient', 'items.*.name'];
    const mine = { ...order, status: 'new', remark: 'mine' };
    const theirs = {
      ...order,
      version: 9,
      status: 'received',
      userRefNo: 'R2',
      // A column the form does not show changed in the list: no change of the list.
      items: [{ id: 7, name: 'x', quantity: 4 }],
      recipient: { ...order.recipient, name: 'B' },
    };
    const r = mergeRecords(order, mine, theirs, fields);
    expect(r).toMatchObject({ mine: ['remark'], theirs: ['recipient.name'], both: [] });
    expect(r.merged).toMatchObject({ version: 3, status: 'new', userRefNo: 'R1', recipient: { name: 'B' } });
    expect(r.merged.items).toBe(order.items);
  });

  it('takes a field they added or removed, and a whole object where my side has none', () => {
    const r = mergeRecords({ a: 1, o: null }, { a: 1, o: null }, { a: 1, b: 2, o: { x: 1 } });
    expect(r.merged).toEqual({ a: 1, b: 2, o: { x: 1 } });
    expect(r.theirs).toEqual(['o.x', 'b']);
    const gone = mergeRecords({ a: 1, b: 2 }, { a: 1, b: 2 }, { a: 1 });
    expect(gone.merged).toEqual({ a: 1 });
    expect(gone.theirs).toEqual(['b']);
  });
});
