/** A saved setting is not undone by a read of the settings that was in flight when it was saved. */
import { auth } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { flushUserSettings, saveUserSetting } from '../src/app/userSettings.ts';
import { nextSettingSeq, saveServerSetting } from '../src/lib/server-settings.ts';
import { callKey, queryClient } from '../src/lib/query.ts';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('saveServerSetting', () => {
  it('keeps the new value when an older read answers after it', async () => {
    const key = callKey(auth.userSettings, {});
    queryClient.setQueryData(key, { orderColumns: ['orderNo', 'recipientPhone'] });
    let answer!: (v: unknown) => void;
    const inFlight = queryClient.fetchQuery({
      queryKey: key,
      queryFn: () => new Promise((r) => (answer = r)),
      staleTime: 0,
    });
    inFlight.catch(() => undefined);
    // The save's own call answers as the server does (a failed call would report itself).
    const saves: unknown[] = [];
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      saves.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ code: 200, message: 'ok', data: null }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const saving = saveServerSetting('orderColumns', ['orderNo']);
    await tick(5);
    answer({ orderColumns: ['orderNo', 'recipientPhone'] });
    await saving;
    await tick(20);
    expect(queryClient.getQueryData<{ orderColumns: string[] }>(key)?.orderColumns).toEqual(['orderNo']);
    expect(saves).toEqual([{ key: 'orderColumns', value: ['orderNo'], seq: expect.stringMatching(/^\d{15}$/) }]);
  });
});

describe('save stamps', () => {
  it("grow with each change, and a flushed save carries its change's stamp, not the send time's", async () => {
    const sent: { key: string; seq: string; keepalive: boolean }[] = [];
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      const b = JSON.parse(String(init.body));
      sent.push({ key: b.key, seq: b.seq, keepalive: !!init.keepalive });
      return new Response(JSON.stringify({ code: 200, message: 'ok', data: null }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const first = Number(nextSettingSeq());
    saveUserSetting('demo', 'tabs', ['index']);
    const later = Number(nextSettingSeq());
    flushUserSettings();
    await tick(5);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.keepalive).toBe(true);
    // The change came between the two stamps; the next page's saves stamp higher still.
    expect(Number(sent[0]!.seq)).toBeGreaterThan(first);
    expect(Number(sent[0]!.seq)).toBeLessThan(later);
    expect(Number(nextSettingSeq())).toBeGreaterThan(later);
    expect(first).toBeGreaterThanOrEqual(Date.now() * 100 - 6_000_000);
  });
});
