/**
 * Finding 23: the HTTP client's wire rules (spec §4, §8) — refresh once on 401 and replay,
 * 430 ends the session once, 500 shows its error number, 422 is left to the page — against
 * an in-process fake of the server's envelope answers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orders } from '@console/contract';
import { ApiError, call, callUpload, errorText } from '../src/lib/http.ts';
import { sessionEvents } from '../src/lib/events.ts';
import { setFeedback } from '../src/lib/feedback.ts';
import { getToken, setToken } from '../src/lib/storage.ts';
import { reloads } from './setup.ts';

type Answer = { status: number; body: { code: number; message: string; data: unknown; key?: string } };
type Seen = { path: string; authorization: string | null };
let seen: Seen[] = [];
let answer: (req: Seen) => Answer;
const shown: { kind: string; text: string }[] = [];
const events: string[] = [];
const off = sessionEvents.on((e) => events.push(e.type));

const ok = (data: unknown): Answer => ({ status: 200, body: { code: 200, message: 'ok', data } });
const fail = (code: number, message: string, data: unknown = null): Answer => ({
  status: code,
  body: { code, message, data },
});
const settle = () => new Promise((r) => setTimeout(r, 0));
const page = { offset: 0, limit: 20, order: 'desc' } as const;

beforeEach(() => {
  seen = [];
  shown.length = 0;
  events.length = 0;
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    const req = { path: String(url).replace('/api/', ''), authorization: headers.Authorization ?? null };
    seen.push(req);
    const a = answer(req);
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const record = (kind: string) => (o: unknown) => {
    const x = o as { content?: string; title?: string; description?: string };
    shown.push({ kind, text: [x.title, x.content, x.description].filter(Boolean).join(' | ') });
  };
  setFeedback({
    message: { error: record('toast') },
    notification: { error: record('notification') },
    modal: { warning: record('warning'), error: record('modal') },
  } as never);
  setToken('old-token');
});
afterEach(() => setFeedback(null));
afterEach(() => void off);

describe('finding 23: HTTP client', () => {
  it('401: refreshes once, replays with the new token, and concurrent calls share the refresh', async () => {
    answer = (r) => {
      if (r.path === 'refresh') return ok({ access_token: 'new-token' });
      return r.authorization === 'Bearer new-token' ? ok({ total: 0, list: [] }) : fail(401, 'expired');
    };
    const [a, b] = await Promise.all([call(orders.orderList, page), call(orders.errorOrders, page)]);
    expect(a).toEqual({ total: 0, list: [] });
    expect(b).toEqual({ total: 0, list: [] });
    expect(seen.filter((s) => s.path === 'refresh')).toHaveLength(1);
    expect(seen.filter((s) => s.path !== 'refresh').map((s) => s.authorization)).toEqual([
      'Bearer old-token',
      'Bearer old-token',
      'Bearer new-token',
      'Bearer new-token',
    ]);
    expect(getToken()).toBe('new-token');
    await settle();
    expect(shown).toEqual([]);
  });

  it('401 with a refresh that fails: the session expires (cookie gone, event) and nothing is toasted', async () => {
    answer = (r) => (r.path === 'refresh' ? fail(401, 'refresh window over') : fail(401, 'expired'));
    await expect(call(orders.orderList, page)).rejects.toMatchObject({ code: 401 });
    expect(getToken()).toBeUndefined();
    expect(events).toContain('expired');
    await settle();
    expect(shown).toEqual([]);
  });

  it('430: one "session ended" dialog however many calls fail, and OK reloads', async () => {
    answer = () => fail(430, 'Signed in elsewhere');
    await Promise.allSettled([call(orders.orderList, page), call(orders.errorOrders, page)]);
    await settle();
    expect(shown.filter((s) => s.kind === 'warning')).toHaveLength(1);
    expect(shown[0]!.text).toContain('Signed in elsewhere');
    expect(shown.some((s) => s.kind === 'toast')).toBe(false);
  });

  it('500: a lasting notification with the error number; other codes toast unless silent', async () => {
    answer = () => fail(500, 'Server error', { errorId: 'E-42' });
    await expect(call(orders.orderList, page)).rejects.toBeInstanceOf(ApiError);
    await settle();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ kind: 'notification' });
    expect(shown[0]!.text).toContain('E-42');

    shown.length = 0;
    answer = () => fail(409, 'Order DM1 is shipped');
    await expect(call(orders.orderDelete, { ids: [1] })).rejects.toMatchObject({ code: 409 });
    await settle();
    expect(shown).toEqual([{ kind: 'toast', text: 'Order DM1 is shipped' }]);

    shown.length = 0;
    await expect(call(orders.orderDelete, { ids: [1] }, { silent: true })).rejects.toMatchObject({ code: 409 });
    await settle();
    expect(shown).toEqual([]);
  });

  it('422: no toast; the error carries the field messages for the form', async () => {
    answer = () => fail(422, 'Invalid', { 'recipient.idCard': ['The ID number is not valid.'] });
    const err = await call(orders.orderList, page).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).fieldErrors).toEqual({ 'recipient.idCard': ['The ID number is not valid.'] });
    expect(errorText(err)).toBe('The ID number is not valid.');
    await settle();
    expect(shown).toEqual([]);
  });

  it("an error carries the answer's stable key (docs/api.md), null when the answer had none", async () => {
    answer = () => ({
      status: 409,
      body: { code: 409, message: 'Someone else changed this record', key: 'recordChanged', data: null },
    });
    const stale = await call(orders.orderList, page, { silent: true }).catch((e: unknown) => e);
    expect((stale as ApiError).key).toBe('recordChanged');
    answer = () => fail(409, 'Conflict');
    const bare = await call(orders.orderList, page, { silent: true }).catch((e: unknown) => e);
    expect((bare as ApiError).key).toBeNull();
  });

  it("spec §8 'Upload failed': a refused upload's toast says that the upload failed, then why", async () => {
    answer = () => fail(413, 'The file is larger than 20 MB');
    await expect(callUpload(orders.orderBatchSearch, new FormData())).rejects.toMatchObject({ code: 413 });
    await settle();
    expect(shown).toEqual([{ kind: 'toast', text: '上传失败：The file is larger than 20 MB' }]);
  });

  it('a 400 "no data" stays silent; a page that is not JSON is coded by its HTTP status', async () => {
    answer = () => fail(400, 'no data');
    await expect(call(orders.orderList, page)).rejects.toMatchObject({ code: 400 });
    globalThis.fetch = (async () => new Response('<html>Bad gateway</html>', { status: 502 })) as typeof fetch;
    await expect(call(orders.orderList, page)).rejects.toMatchObject({ code: 502 });
    await settle();
    expect(shown).toHaveLength(1);
    expect(shown[0]!.kind).toBe('toast');
    expect(reloads.count).toBe(0);
  });
});
