import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 11 findings 16 and 17: a new password meets one policy (the contract's), refused
 * as a 422 on `password` naming the reason in the caller's language; and no refusal of a
 * field carries zod's own words.
 */
let h: Harness;
const en = { 'accept-language': 'en' };
const zh = { 'accept-language': 'zh-CN' };
beforeAll(async () => {
  h = await createHarness();
});

describe('finding 16: updatePassWord enforces the password policy', () => {
  const change = async (password: string, headers = en, user = 'demo') =>
    h.post('updatePassWord', { old_password: 'Demo@2026', password }, await h.login(user), headers);

  it.each([
    ['password', ['Use at least three of: lower-case letters, capitals, digits, symbols.', /commonly used password/]],
    ['Short1!', ['The password needs at least 8 characters.']],
    ['Password123!', [/commonly used password/]],
    ['MyDemo#2026', ['The password must not contain your user name.']],
  ] as const)('"%s" is a 422 on password with the reason', async (password, reasons) => {
    const r = await change(password);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.data)).toEqual(['password']);
    expect(r.body.data.password).toHaveLength(reasons.length);
    reasons.forEach((reason, i) => expect(r.body.data.password[i]).toMatch(reason));
    // Nothing changed: the old password still logs in.
    expect((await h.post('login', { name: 'demo', password: 'Demo@2026' })).status).toBe(200);
  });

  it('says it in Chinese, never in zod’s words', async () => {
    const r = await change('password', zh);
    expect(r.status).toBe(422);
    expect(r.body.data.password).toEqual([
      '请至少使用小写字母、大写字母、数字、符号中的三种。',
      '这是容易被猜到的常用密码，请换一个。',
    ]);
    const short = await change('abc', zh);
    expect(short.body.data.password[0]).toBe('密码至少需要 8 个字符。');
    expect(JSON.stringify(short.body.data)).not.toMatch(/期望|数值过小|string/);
  });

  it('accepts a password that meets the policy', async () => {
    const r = await change('Warm#Tea2026', en, 'demo2');
    expect(r.status).toBe(200);
    expect((await h.post('login', { name: 'demo2', password: 'Warm#Tea2026' })).status).toBe(200);
  });
});

describe('finding 16: create-admin enforces the same policy', () => {
  const run = promisify(execFile);
  it('refuses "password" and a password containing the name, naming the field and reason', async () => {
    const cli = new URL('../src/cli/create-admin.ts', import.meta.url).pathname;
    const cases: [string, string, RegExp][] = [
      ['root', 'password', /three of.*commonly used/s],
      ['boss', 'TheBoss#2026', /must not contain your user name/],
    ];
    for (const [name, password, reason] of cases) {
      const r = await run(process.execPath, [cli, '--name', name, '--password', password], {
        env: { ...process.env, DATABASE_URL: ':memory:', DEMO_SEED: 'false', LOG_LEVEL: 'silent' },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^password: /);
      expect(r.stderr).toMatch(reason);
    }
  });
});

describe('finding 17: field refusals are in our words, in both languages', () => {
  it('a malformed date and a zero page size on the order list', async () => {
    const token = await h.login('operator');
    const body = { dateFrom: '2026/11/01', limit: 0 };
    const r = await h.post('order/orderList', body, token, en);
    expect(r.status).toBe(422);
    expect(r.body.data).toEqual({ dateFrom: ['Enter a date as YYYY-MM-DD.'], limit: ['Enter 1 or more.'] });
    const z = await h.post('order/orderList', body, token, zh);
    expect(z.body.data).toEqual({ dateFrom: ['请按 YYYY-MM-DD 格式填写日期。'], limit: ['请输入不小于 1 的数。'] });
  });
  it('a missing and an over-long field', async () => {
    const r = await h.post('login', { name: 'x'.repeat(65) }, undefined, zh);
    expect(r.status).toBe(422);
    expect(r.body.data).toEqual({ name: ['最多输入 64 个字符。'], password: ['必填。'] });
  });
});
