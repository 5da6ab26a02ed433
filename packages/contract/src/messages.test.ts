import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isCommonPassword } from './common-passwords.ts';
import { apiLanguages, type ApiLanguage } from './i18n.ts';
import { allCalls } from './index.ts';
import { allFieldMessageTemplates, contractErrorMap, RULE_PARAM } from './messages.ts';
import { passwordMessages, passwordProblems } from './password.ts';
import { type Leaf, leavesOf, sampleOf, withValue } from './schema-walk.ts';
import { TEXT_RULE_PARAM } from './fields.ts';

/** Values that break a field of each kind in every way a client can. */
const violations: Record<Leaf['kind'], unknown[]> = {
  string: ['', 'x'.repeat(300_001), 5, null, '\u0000', '\u202e', '\ud800', 'not-the-format', '-1.23456', {}],
  number: [-1, 0, 1.5, 2 ** 31, 'abc', '1e3', null, [1], true],
  boolean: ['yes', 1, null],
  enum: ['__nope__', 5, null],
  unknown: ['x'.repeat(70_000), { 'a\u202e': 1 }],
  other: ['x', 5, null],
};

/** Our templates as patterns ({n} stands for a parameter). */
const ours = (lang: ApiLanguage) =>
  allFieldMessageTemplates().map(
    (t) => new RegExp(`^${t[lang].replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{n\\}', '.+')}$`, 's'),
  );

interface Seen {
  issue: z.core.$ZodRawIssue;
  message: string;
}

/** Parses `body` in `lang`, recording what our error map was asked and said. */
function refusals(schema: z.ZodType, body: unknown, lang: ApiLanguage) {
  const seen: Seen[] = [];
  const map = contractErrorMap(lang);
  const r = schema.safeParse(body, {
    error: (issue) => {
      const message = map(issue) as string;
      seen.push({ issue, message });
      return message;
    },
  });
  const messages: string[] = [];
  const walk = (issues: z.core.$ZodIssue[]) => {
    for (const i of issues) {
      messages.push(i.message);
      if (i.code === 'invalid_union') for (const branch of i.errors) walk(branch);
    }
  };
  if (!r.success) walk(r.error.issues);
  return { seen, messages };
}

const ZOD_WORDS =
  /expected (string|number|int|boolean|array|object)|Invalid (input|option|string)|Too (big|small)|无效|期望|[<>]=/;

describe('finding 17: no zod default text reaches a screen', () => {
  const leaves = allCalls.flatMap((call) =>
    leavesOf(call.request).map((leaf) => ({ call, leaf, name: `${call.path} ${leaf.path.join('.') || '(body)'}` })),
  );
  it('walks the fields of every call', () => {
    expect(leaves.length).toBeGreaterThan(150);
  });

  it.each(apiLanguages.map((l) => [l]))('every refusal of every field is one of our messages (%s)', (lang) => {
    const patterns = ours(lang);
    const bodies: { name: string; schema: z.ZodType; body: unknown }[] = [];
    for (const { call, leaf, name } of leaves) {
      const valid = sampleOf(call.request, undefined, leaf.path);
      for (const bad of violations[leaf.kind])
        bodies.push({ name, schema: call.request, body: withValue(valid, leaf.path, bad) });
      // Left out: required fields say so.
      bodies.push({ name, schema: call.request, body: withValue(valid, leaf.path, undefined) });
    }
    for (const call of allCalls) {
      bodies.push({ name: `${call.path} {}`, schema: call.request, body: {} });
      bodies.push({
        name: `${call.path} unknown key`,
        schema: call.request,
        body: { ...(sampleOf(call.request) as object), zz: 1 },
      });
      bodies.push({ name: `${call.path} null`, schema: call.request, body: null });
    }

    let refused = 0;
    const problems: string[] = [];
    for (const { name, schema, body } of bodies) {
      const { seen, messages } = refusals(schema, body, lang);
      refused += messages.length;
      for (const m of messages) {
        // Said by our map, not by a message fixed on a check (`.refine(fn, 'too large')`).
        if (!seen.some((s) => s.message === m)) problems.push(`${name}: ${m} (not from the map)`);
        if (!patterns.some((p) => p.test(m))) problems.push(`${name}: ${m} (not a template)`);
        if (ZOD_WORDS.test(m)) problems.push(`${name}: ${m} (zod's words)`);
        if ((lang === 'zh-CN') !== /[\u4e00-\u9fff]/.test(m)) problems.push(`${name}: ${m} (wrong language)`);
      }
      for (const { issue } of seen) {
        if (issue.code !== 'custom') continue;
        const p = (issue as { params?: Record<string, unknown> }).params ?? {};
        if (!p[TEXT_RULE_PARAM] && !p[RULE_PARAM]) problems.push(`${name}: a custom check names no rule`);
      }
    }
    expect(refused).toBeGreaterThan(1000);
    expect([...new Set(problems)]).toEqual([]);
  });

  it('zod itself would have said something else (the map is what makes the difference)', () => {
    const schema = allCalls.find((c) => c.path === 'order/orderList')!.request;
    const body = { dateFrom: '2026/11/01', limit: 0 };
    const plain = schema.safeParse(body, { error: z.locales.zhCN().localeError });
    const mapped = schema.safeParse(body, { error: contractErrorMap('zh-CN') });
    expect(plain.error!.issues.map((i) => i.message).join()).toMatch(ZOD_WORDS);
    expect(mapped.error!.issues.map((i) => i.message).sort()).toEqual(
      ['请按 YYYY-MM-DD 格式填写日期。', '请输入不小于 1 的数。'].sort(),
    );
  });

  it('every regular expression of a request has a message of its own', () => {
    const generic = new Set(['This is not in the expected form.', '格式不正确。']);
    for (const call of allCalls)
      for (const leaf of leavesOf(call.request)) {
        if (leaf.kind !== 'string') continue;
        for (const lang of apiLanguages) {
          const { messages, seen } = refusals(leaf.field, 'not-the-format', lang);
          for (const m of messages)
            if (seen.some((s) => s.issue.code === 'invalid_format'))
              expect(generic.has(m), `${call.path} ${leaf.path.join('.')}: ${m}`).toBe(false);
        }
      }
  });
});

describe('finding 16: one password policy', () => {
  const check = (pw: string, userName = 'agent') => passwordProblems(pw, { userName, isCommon: isCommonPassword });
  it('refuses "password", short, one-kind and common passwords with the reason', () => {
    expect(check('password')).toEqual(['kinds', 'common']);
    expect(check('Ab1!')).toEqual(['tooShort']);
    expect(check('abcdefghijk')).toEqual(['kinds']);
    expect(check('abcdefgh12')).toEqual(['kinds']);
    expect(check('Password123!')).toEqual(['common']);
    expect(check('P@ssw0rd')).toEqual(['common']);
    expect(check('x'.repeat(60) + 'A1!' + 'y'.repeat(70))).toEqual(['tooLong']);
  });
  it('refuses a password containing the user name, in any case', () => {
    expect(check('MyAgent#2026')).toEqual(['containsName']);
    expect(check('AGENT#2026x')).toEqual(['containsName']);
    // A name of one or two letters is not looked for.
    expect(check('Warm#Tea2026', 'te')).toEqual([]);
  });
  it('accepts a password of three kinds that is none of these', () => {
    expect(check('Demo@2026')).toEqual([]);
    expect(check('NewPass@2026')).toEqual([]);
    expect(check('correct horse battery 9')).toEqual([]);
    expect(check('冬天的Tea2026')).toEqual([]);
  });
  it('every reason has a message in both languages', () => {
    for (const m of Object.values(passwordMessages)) for (const lang of apiLanguages) expect(m[lang]).toBeTruthy();
    expect(passwordMessages.password_tooShort['zh-CN']).toBe('密码至少需要 8 个字符。');
  });
});
