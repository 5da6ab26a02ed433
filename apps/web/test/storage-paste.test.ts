import { describe, expect, it } from 'vitest';
import { parsePasted } from '../src/features/storage-orders/paste.ts';

/** The storage entry's paste mode: "waybill weight" per line, sent as two parallel arrays. */
describe('pasted storage lines', () => {
  it.each([
    ['waybills alone: no weights sent', 'A1\nA2\n', { waybillNos: ['A1', 'A2'], grossWeightsG: undefined }],
    [
      'space, comma, full-width comma and tabs; blank lines skipped',
      'A1 1200\n\nA2,850\r\nA3，90\nA4\t100000\nA5',
      { waybillNos: ['A1', 'A2', 'A3', 'A4', 'A5'], grossWeightsG: [1200, 850, 90, 100000, null] },
    ],
    ['spaces around the comma', '  A1 , 5  ', { waybillNos: ['A1'], grossWeightsG: [5] }],
  ])('%s', (_name, text, expected) => {
    expect(parsePasted(text)).toEqual(expected);
  });
  it.each([
    ['not a number', 'A1 12kg', 1],
    ['decimal grams', 'A1\nA2 1.5', 2],
    ['zero', 'A1 0', 1],
    ['over 100 kg', 'A1 100001', 1],
    ['three parts', 'A1 100 200', 1],
    ['a waybill too long', `${'X'.repeat(65)} 10`, 1],
  ])('refuses %s, naming the line', (_name, text, n) => {
    const r = parsePasted(text);
    expect('bad' in r && r.bad.n).toBe(n);
  });
});
