import { describe, expect, it } from 'vitest';
import { changedFields } from './changes.ts';

describe('changedFields', () => {
  it('lists the shown leaves that differ, nested and in lists, empty equal to null', () => {
    const before = {
      version: 3,
      remark: '',
      recipient: { name: 'A', address: 'old' },
      items: [{ name: 'x', quantity: 1 }],
      status: 'new',
    };
    const after = {
      version: 5,
      remark: null,
      recipient: { name: 'A', address: 'new' },
      items: [
        { name: 'x', quantity: 2 },
        { name: 'y', quantity: 1 },
      ],
      status: 'received',
    };
    expect(changedFields(before, after, ['recipient', 'remark', 'items'])).toEqual([
      { path: 'recipient.address', before: 'old', after: 'new' },
      { path: 'items.0.quantity', before: 1, after: 2 },
      { path: 'items.1.name', before: null, after: 'y' },
      { path: 'items.1.quantity', before: null, after: 1 },
    ]);
    expect(changedFields(before, after, ['items.*.name']).map((c) => c.path)).toEqual(['items.1.name']);
  });
});
