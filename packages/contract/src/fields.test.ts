import { describe, expect, it } from 'vitest';
import { idOf, MAX_ID, text, textProblem } from './fields.ts';
import { allCalls } from './index.ts';
import { leavesOf, sampleOf, withValue } from './schema-walk.ts';

const fieldsOf = (kind: string) =>
  allCalls.flatMap((call) =>
    leavesOf(call.request)
      .filter((l) => l.kind === kind)
      .map((l) => ({ call, ...l, name: `${call.path} ${l.path.join('.')}` })),
  );

describe('finding 8: one text rule for every text field', () => {
  it.each([
    ['a\u0000b', 'control'],
    ['a\u0007b', 'control'],
    ['a\u007fb', 'control'],
    ['a\u0085b', 'control'],
    ['a\u202eb', 'bidi'],
    ['a\u2066b', 'bidi'],
    ['a\ud800b', 'surrogate'],
    ['a\udc00', 'surrogate'],
    ['a\nb', 'control'],
  ])('%j is refused as %s', (s, problem) => {
    expect(textProblem(s)).toBe(problem);
  });
  it('allows ordinary text, pairs of surrogates and, in multi-line fields, tab and line breaks', () => {
    expect(textProblem('北京市朝阳区 1-2 #3 😀')).toBeNull();
    expect(textProblem('a\tb\r\nc', true)).toBeNull();
    expect(textProblem('a\u0000b', true)).toBe('control');
    expect(text({ max: 10, multiline: true }).safeParse('a\nb').success).toBe(true);
  });

  const strings = fieldsOf('string');
  it('finds the text fields of every call', () => {
    expect(strings.length).toBeGreaterThan(40);
    expect(strings.map((s) => s.name)).toContain('login name');
  });
  it.each(strings.map((s) => [s.name, s]))('%s refuses NUL, bidi overrides and lone surrogates', (_, s) => {
    for (const bad of ['a\u0000b', 'a\u202eb', 'a\ud800b']) {
      expect(s.field.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      // Refused inside a whole body too, with the field's path.
      const body = withValue(sampleOf(s.call.request, undefined, s.path), s.path, bad);
      const r = s.call.request.safeParse(body);
      expect(r.success).toBe(false);
      expect(r.error!.issues.map((i) => i.path.join('.'))).toContain(s.path.join('.'));
    }
  });
  it('free-form JSON (saved settings) holds to the rule in every string, keys included', () => {
    const unknowns = fieldsOf('unknown');
    expect(unknowns.map((u) => u.name)).toEqual(['user/settings/save value']);
    for (const u of unknowns) {
      expect(u.field.safeParse({ tabs: ['ok'] }).success).toBe(true);
      expect(u.field.safeParse({ tabs: ['a\u0000b'] }).success).toBe(false);
      expect(u.field.safeParse({ 'a\u202e': 1 }).success).toBe(false);
    }
  });
});

describe('finding 17: every id and number of a request is bounded', () => {
  const numbers = fieldsOf('number');
  it('finds the numbers of every call', () => {
    expect(numbers.length).toBeGreaterThan(30);
    expect(numbers.map((n) => n.name)).toContain('order/order id');
  });
  it.each(numbers.map((n) => [n.name, n]))('%s refuses 2^31, 2^63, negatives, fractions, arrays', (_, n) => {
    for (const bad of [2 ** 31, 2 ** 63, '2147483648', '9223372036854775808', -1, 1.5, [1], true, NaN, Infinity]) {
      expect(n.field.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
  it('an id is 1 … 2^31−1, as a number or digits', () => {
    expect(idOf.safeParse(MAX_ID).data).toBe(MAX_ID);
    expect(idOf.safeParse('42').data).toBe(42);
    expect(idOf.safeParse(0).success).toBe(false);
    expect(idOf.safeParse(' 4').success).toBe(false);
  });
});

describe('the body generator', () => {
  it('builds a valid body for every call', () => {
    expect(allCalls.length).toBeGreaterThan(80);
    for (const call of allCalls) {
      const r = call.request.safeParse(sampleOf(call.request));
      expect(r.success, `${call.path}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
    }
  });
});
