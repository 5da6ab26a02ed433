import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type HttpClient, listening } from './harness.ts';

/**
 * Finding 6 (issue 26): five wrong passwords by anyone locked `admin` for the window, 30 failures
 * behind one office NAT locked everyone there, and with TRUST_PROXY=true a varying
 * X-Forwarded-For chose the address. Now an account-and-address pair that has logged in before
 * has a window of its own (docs/decisions.md, "Login throttle: known addresses"), and
 * TRUST_PROXY names the proxies (here 127.0.0.1: the test plays the proxy, which appends the
 * address it saw as the last X-Forwarded-For entry). Requests fly truly in parallel over real HTTP, default
 * limits (5 per account, 30 per address).
 */
let t: Harness;
let http: HttpClient;
beforeAll(async () => {
  t = await createHarness({
    env: { TRUST_PROXY: '127.0.0.1', LOGIN_MAX_FAILURES_PER_ACCOUNT: '5', LOGIN_MAX_FAILURES_PER_ADDRESS: '30' },
  });
  http = await listening(t.app);
});
const nextWindow = () => (t.clock.now = new Date(t.clock.now.getTime() + 16 * 60_000));
/** A login as the proxy forwards it from `from` (what the client itself sent comes first). */
const loginFrom = (from: string, name: string, password: string, clientSaid?: string) =>
  http.post('login', { name, password }, undefined, {
    'x-forwarded-for': clientSaid ? `${clientSaid}, ${from}` : from,
  });
const tally = (rs: { status: number }[]) => {
  const n: Record<number, number> = {};
  for (const r of rs) n[r.status] = (n[r.status] ?? 0) + 1;
  return n;
};

describe('finding 6: strangers cannot lock the owner out', { timeout: 180_000 }, () => {
  it('finding 6: 100 parallel wrong passwords for admin from 100 addresses: 5 checked, and admin still logs in from its known address', async () => {
    nextWindow();
    expect((await loginFrom('203.0.113.10', 'admin', 'Demo@2026')).status).toBe(200);
    nextWindow();
    const rs = await Promise.all(
      Array.from({ length: 100 }, (_, i) => loginFrom(`198.51.100.${i + 1}`, 'admin', 'wrong-password')),
    );
    expect(tally(rs)).toEqual({ 400: 5, 429: 95 });
    // The owner, from where it logged in before, is not locked out by them...
    expect((await loginFrom('203.0.113.10', 'admin', 'Demo@2026')).status).toBe(200);
    // ...while a new address, the right password included, still is (the strangers' window is spent).
    expect((await loginFrom('198.51.100.200', 'admin', 'Demo@2026')).status).toBe(429);
  });

  it('finding 6: from a known address the account is throttled too: 100 parallel guesses, 5 checked', async () => {
    nextWindow();
    expect((await loginFrom('203.0.113.20', 'operator', 'Demo@2026')).status).toBe(200);
    const rs = await Promise.all(
      Array.from({ length: 100 }, () => loginFrom('203.0.113.20', 'operator', 'wrong-password')),
    );
    expect(tally(rs)).toEqual({ 400: 5, 429: 95 });
    expect((await loginFrom('203.0.113.20', 'operator', 'Demo@2026')).status).toBe(429);
    nextWindow();
    expect((await loginFrom('203.0.113.20', 'operator', 'Demo@2026')).status).toBe(200);
  });

  it('finding 6: 100 parallel failures behind one NAT: the attacker is stopped at 30, the users who logged in there before still log in', async () => {
    nextWindow();
    const nat = '192.0.2.1';
    for (const name of ['demo', 'demo2']) expect((await loginFrom(nat, name, 'Demo@2026')).status).toBe(200);
    nextWindow();
    const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => loginFrom(nat, `ghost${i}`, 'wrong-password')));
    expect(tally(rs)).toEqual({ 400: 30, 429: 70 });
    // The attacker stays stopped, on any account it has not logged into from there.
    expect((await loginFrom(nat, 'agent', 'wrong-password')).status).toBe(429);
    const users = await Promise.all(['demo', 'demo2'].map((name) => loginFrom(nat, name, 'Demo@2026')));
    expect(users.map((r) => r.status)).toEqual([200, 200]);
  });
});

describe('finding 6: TRUST_PROXY=127.0.0.1 takes the address the proxy saw', { timeout: 180_000 }, () => {
  it('finding 6: a client-supplied X-Forwarded-For entry does not change the login address', async () => {
    nextWindow();
    const rs = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        loginFrom('192.0.2.50', `spoofer${i}`, 'wrong-password', `10.${i}.0.1, 172.16.0.${i}`),
      ),
    );
    expect(tally(rs)).toEqual({ 400: 30, 429: 30 });
  });

  it('finding 6: nor the public tracking limit (30 per address)', async () => {
    nextWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const r = await http.post('order/tracking', { waybillNos: ['A1'] }, undefined, {
        'x-forwarded-for': `10.0.${i}.1, 192.0.2.60`,
      });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another address (as the proxy saw it) still has its budget.
    const other = await http.post('order/tracking', { waybillNos: ['A1'] }, undefined, {
      'x-forwarded-for': '10.0.0.1, 192.0.2.61',
    });
    expect(other.status).toBe(200);
  });
});
