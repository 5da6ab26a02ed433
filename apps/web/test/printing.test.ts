/** Issue 14, console printing: the print settings as read and checked, the repeat-print rule, print by number. */
import { describe, expect, it } from 'vitest';
import {
  checkPrintSettings,
  DEFAULT_PRINT_SETTINGS,
  printRefusal,
  qzOptions,
  readPrintSettings,
  repeatPrintCheck,
} from '../src/components/printing/settings.ts';
import { addNumbers, applySearch, printable, splitNumbers, type Line } from '../src/features/printing/by-number.ts';

describe('print settings', () => {
  it('default to label A (100 × 150 mm), no margins, interception on, no picking list, the agent on localhost:8182', () => {
    for (const saved of [undefined, null, 'x', [], {}, 42])
      expect(readPrintSettings(saved)).toEqual({
        width: 100,
        height: 150,
        marginTop: 0,
        marginRight: 0,
        marginBottom: 0,
        marginLeft: 0,
        repeatIntercept: true,
        pickingList: false,
        printer: null,
        agentHost: 'localhost',
        agentPort: 8182,
      });
  });

  it('keep each good saved field and default each bad one, field by field', () => {
    const s = readPrintSettings({
      width: 76.2,
      height: 5000, // out of range
      marginTop: 2,
      marginLeft: -1, // out of range
      marginRight: '3', // not a number
      repeatIntercept: false,
      pickingList: true,
      printer: 'Zebra ZD420',
      agentHost: 'ws://evil/', // scheme and path are not a host
      agentPort: 8190.5, // not a port
      extra: 'ignored',
    });
    expect(s).toEqual({
      ...DEFAULT_PRINT_SETTINGS,
      width: 76.2,
      marginTop: 2,
      repeatIntercept: false,
      pickingList: true,
      printer: 'Zebra ZD420',
    });
    expect(readPrintSettings({ agentHost: '192.168.1.5' }).agentHost).toBe('localhost');
    expect(readPrintSettings({ agentHost: '127.0.0.1', agentPort: 8190 })).toMatchObject({
      agentHost: '127.0.0.1',
      agentPort: 8190,
    });
    expect(readPrintSettings({ printer: '   ' }).printer).toBeNull();
  });

  it('are checked before saving: ranges, margins that leave no printable area, host and port', () => {
    expect(checkPrintSettings({ ...DEFAULT_PRINT_SETTINGS })).toEqual({});
    expect(
      checkPrintSettings({
        ...DEFAULT_PRINT_SETTINGS,
        width: 5,
        marginTop: 101,
        agentHost: 'http://x',
        agentPort: 70000,
      }),
    ).toEqual({ width: 'sizeRange', marginTop: 'marginRange', agentHost: 'agentHostInvalid', agentPort: 'portRange' });
    expect(checkPrintSettings({ ...DEFAULT_PRINT_SETTINGS, marginLeft: 50, marginRight: 50 })).toEqual({
      marginRight: 'marginsTooWide',
    });
    expect(checkPrintSettings({ ...DEFAULT_PRINT_SETTINGS, marginTop: 75, marginBottom: 75 })).toEqual({
      marginBottom: 'marginsTooTall',
    });
    expect(checkPrintSettings({ ...DEFAULT_PRINT_SETTINGS, width: Number.NaN })).toEqual({ width: 'sizeRange' });
  });

  it('become the agent’s print options in millimetres', () => {
    expect(
      qzOptions({ ...DEFAULT_PRINT_SETTINGS, marginTop: 1, marginRight: 2, marginBottom: 3, marginLeft: 4 }, 'j'),
    ).toEqual({
      size: { width: 100, height: 150 },
      units: 'mm',
      margins: { top: 1, right: 2, bottom: 3, left: 4 },
      copies: 1,
      jobName: 'j',
    });
  });
});

describe('repeat-print interception', () => {
  const orders = [
    { id: 1, orderNo: 'A1', printCount: 0 },
    { id: 2, orderNo: 'A2', printCount: 2 },
    { id: 3, orderNo: 'A3', printCount: 1 },
  ];
  it('asks when any order was printed before, naming those and their counts', () => {
    expect(repeatPrintCheck(orders, { repeatIntercept: true })).toEqual({
      ask: true,
      printed: [
        { orderNo: 'A2', printCount: 2 },
        { orderNo: 'A3', printCount: 1 },
      ],
    });
  });
  it('prints at once when none was printed, or when the interception is off', () => {
    expect(repeatPrintCheck([orders[0]!], { repeatIntercept: true })).toEqual({ ask: false });
    expect(repeatPrintCheck(orders, { repeatIntercept: false })).toEqual({ ask: false });
  });
});

describe('print by order number', () => {
  const row = (over: Record<string, unknown>) =>
    ({
      id: 1,
      orderNo: 'JP1',
      matched: 'JP1',
      matchedBy: 'orderNo',
      status: 'created',
      intercepted: false,
      errorReason: null,
      printCount: 0,
      ...over,
    }) as never;

  it('splits typed and pasted numbers, each once where it last comes (spec §5, the last wins)', () => {
    expect(splitNumbers(' JP1\nJP2, JP3；JP1\t\n')).toEqual(['JP2', 'JP3', 'JP1']);
  });

  it('adds only numbers not already listed', () => {
    const first = addNumbers([], ['JP1', 'JP2']);
    expect(first.added).toEqual(['JP1', 'JP2']);
    const again = addNumbers(first.lines, ['JP2', 'JP3', 'JP3']);
    expect(again.added).toEqual(['JP3']);
    expect(again.lines.map((l) => l.number)).toEqual(['JP1', 'JP2', 'JP3']);
  });

  it('marks each number found, refused with the reason (the order life’s print rule) or not found', () => {
    const { lines } = addNumbers([], ['JP1', 'JP2', 'JP3', 'JP4', 'JP5', 'JP6', 'NOPE']);
    const out = applySearch(lines, [
      row({ id: 1, orderNo: 'JP1', matched: 'JP1' }),
      row({ id: 2, orderNo: 'JP2', matched: 'JP2', status: 'printed', printCount: 1 }),
      row({ id: 3, orderNo: 'JP3', matched: 'JP3', intercepted: true }),
      row({ id: 4, orderNo: 'JP4', matched: 'JP4', status: 'cancelled' }),
      row({ id: 5, orderNo: 'JP5', matched: 'JP5', status: 'received' }),
      row({ id: 6, orderNo: 'JP6', matched: 'JP6', errorReason: 'bad address' }),
    ]);
    expect(out.map((l) => [l.number, l.state, 'reasonKey' in l ? l.reasonKey : undefined])).toEqual([
      ['JP1', 'found', undefined],
      ['JP2', 'found', undefined],
      ['JP3', 'refused', 'refusedIntercepted'],
      ['JP4', 'refused', 'refusedCancelled'],
      ['JP5', 'refused', 'refusedStatus'],
      ['JP6', 'refused', 'refusedError'],
      ['NOPE', 'notFound', undefined],
    ]);
    expect(printable(out).map((o) => o.id)).toEqual([1, 2]);
  });

  it('takes the order whose order number it is when a number matches several', () => {
    const { lines } = addNumbers([], ['X1']);
    const [line] = applySearch(lines, [
      row({ id: 7, orderNo: 'OTHER', matched: 'X1', matchedBy: 'userRefNo' }),
      row({ id: 8, orderNo: 'X1', matched: 'X1', matchedBy: 'orderNo' }),
    ]) as [Line & { order: { id: number } }];
    expect(line.order.id).toBe(8);
  });

  it('lists each order once to print, printed ones included (printing again is what the interception asks about)', () => {
    const o = row({ id: 9, orderNo: 'JP9' }) as never as Line extends { order: infer F } ? F : never;
    const lines: Line[] = [
      { number: 'JP9', state: 'printed', order: o, printer: 'P' },
      { number: 'W9', state: 'found', order: o },
      { number: 'X', state: 'notFound' },
    ];
    expect(printable(lines).map((x) => x.id)).toEqual([9]);
  });
});

describe('printRefusal', () => {
  it('follows the order life’s print rule', () => {
    const base = { status: 'created', intercepted: false, errorReason: null };
    expect(printRefusal(base)).toBeNull();
    expect(printRefusal({ ...base, status: 'printed' })).toBeNull();
    expect(printRefusal({ ...base, status: 'shipped' })).toBe('refusedStatus');
    expect(printRefusal({ ...base, status: 'cancelled', intercepted: true })).toBe('refusedCancelled');
  });
});
