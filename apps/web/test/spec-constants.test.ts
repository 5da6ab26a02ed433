/**
 * The spec's constants (§11), each checked through the code that uses it, not by reading the
 * constant back: +8 h display, cookie keys and their 365-day life, the client's 30 s default
 * timeout and the calls without one, the 120 s chunk timeout, the badge cap of 999.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { files, orders } from '@console/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CountBadgeView } from '../src/app/layout/Badges.tsx';
import { withChunkTimeout } from '../src/app/routes/lazyPage.tsx';
import { setFeedback } from '../src/lib/feedback.ts';
import { call, callBlob } from '../src/lib/http.ts';
import { APP_VERSION, setCookie, setToken } from '../src/lib/storage.ts';
import { formatDate, formatTime } from '../src/lib/time.ts';

const shown: string[] = [];
const record = (o: unknown) => {
  const x = o as { title?: string; content?: string };
  shown.push([x.title, x.content].filter(Boolean).join(' | '));
};
beforeEach(() => {
  shown.length = 0;
  setFeedback({
    message: { error: record },
    notification: { error: record },
    modal: { warning: record, error: record },
  } as never);
});
afterEach(() => {
  vi.useRealTimers();
  setFeedback(null);
});

describe('displayed times add 8 hours (spec §11), whatever the browser zone', () => {
  it('moves the clock and the date across midnight, month and year ends', () => {
    expect(formatTime('2026-11-26T15:59:59Z')).toBe('2026-11-26 23:59:59');
    expect(formatTime('2026-11-26T16:00:00Z')).toBe('2026-11-27 00:00:00');
    expect(formatTime('2026-02-28T20:00:00Z')).toBe('2026-03-01 04:00:00');
    expect(formatTime('2026-12-31T23:30:00.000Z')).toBe('2027-01-01 07:30:00');
    expect(formatDate('2026-12-31T16:00:00Z')).toBe('2027-01-01');
    expect(formatTime(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe('2026-01-01 08:00:00');
  });
});

describe('cookies (spec §4, §11)', () => {
  it('keys are prefixed with the version and expire after 365 days', () => {
    const written: string[] = [];
    const real = Object.getOwnPropertyDescriptor(globalThis, 'document')!;
    Object.defineProperty(globalThis, 'document', {
      value: {
        set cookie(v: string) {
          written.push(v);
        },
      },
      configurable: true,
    });
    try {
      const before = Date.now();
      setToken('t1');
      setCookie('uuid', 'u1');
      expect(written.map((w) => decodeURIComponent(w.split('=')[0]!))).toEqual([
        `${APP_VERSION}-token`,
        `${APP_VERSION}-uuid`,
      ]);
      for (const w of written) {
        const expires = Date.parse(/expires=([^;]+)/.exec(w)![1]!);
        const days = (expires - before) / 864e5;
        // toUTCString drops the milliseconds.
        expect(days).toBeGreaterThan(365 - 1 / 86_400);
        expect(days).toBeLessThan(365 + 1 / 1440);
      }
    } finally {
      Object.defineProperty(globalThis, 'document', real);
    }
  });
});

/** A server that never answers, but lets the client abort as a real fetch does. */
function hangingFetch() {
  globalThis.fetch = ((_url: string, init: RequestInit) =>
    new Promise((_, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    })) as typeof fetch;
}

describe('request timeouts (spec §7, §11)', () => {
  it('a call gives up after exactly 30 s', async () => {
    vi.useFakeTimers();
    hangingFetch();
    setToken('tok');
    let outcome: unknown = 'pending';
    call(orders.errorOrders, { offset: 0, limit: 1, order: 'desc' }, { silent: true }).then(
      () => (outcome = 'answered'),
      (e: Error) => (outcome = e.name),
    );
    await vi.advanceTimersByTimeAsync(29_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('TimeoutError');
  });
  it('a download waits as long as the server takes', async () => {
    vi.useFakeTimers();
    hangingFetch();
    setToken('tok');
    let outcome: unknown = 'pending';
    callBlob(files.downloadFile, { id: 1 } as never, { silent: true }).then(
      () => (outcome = 'answered'),
      (e: Error) => (outcome = e.name),
    );
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(outcome).toBe('pending');
  });
});

describe('chunk load timeout (spec §11)', () => {
  it('a page chunk that does not arrive fails after 120 s, not before', async () => {
    vi.useFakeTimers();
    let outcome: unknown = 'pending';
    withChunkTimeout(() => new Promise(() => {})).then(
      () => (outcome = 'loaded'),
      (e: Error) => (outcome = e.message),
    );
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toMatch(/timeout after 120000 ms/);
  });
});

describe('badge counts display at most 999 (spec §2, §11)', () => {
  it('the header badge shows 999+ above 999 and the count itself up to it', () => {
    // The console's own badge (issue 36 #17: antd's Badge given the constant proved nothing about the header).
    const show = (total: number) =>
      renderToString(createElement(CountBadgeView, { total, label: 'x', icon: null, testId: 't', onClick: () => {} }));
    expect(show(1500)).toContain('999+');
    expect(show(999)).not.toContain('999+');
    expect(show(999)).toMatch(/>9<.*>9<.*>9</s);
  });
});
