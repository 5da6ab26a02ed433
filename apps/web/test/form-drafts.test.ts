/** Issue 36 #19: the rules of the drafts kept when a session ends (lib/form-drafts.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import {
  DRAFT_TTL_MS,
  dropDraft,
  keepDirtyForms,
  keepDraft,
  readDraft,
  registerDraftSource,
  storable,
} from '../src/lib/form-drafts.ts';

const T0 = Date.parse('2026-12-07T10:00:00Z');

afterEach(() => localStorage.clear());

describe('form drafts', () => {
  it('are read back by the user who kept them, on the page they were kept on, and by no one else', () => {
    keepDraft('demo', '/order/create', { remark: 'mine' }, T0);
    expect(readDraft('demo', '/order/create', T0 + 1000)?.values).toEqual({ remark: 'mine' });
    expect(readDraft('demo', '/order/create', T0 + 1000)?.at).toBe(T0);
    expect(readDraft('demo2', '/order/create', T0 + 1000)).toBeNull();
    expect(readDraft('demo', '/item/create', T0 + 1000)).toBeNull();
    // Another user's draft of the same page is theirs alone; neither replaces the other.
    keepDraft('demo2', '/order/create', { remark: 'theirs' }, T0);
    expect(readDraft('demo', '/order/create', T0)?.values).toEqual({ remark: 'mine' });
    expect(readDraft('demo2', '/order/create', T0)?.values).toEqual({ remark: 'theirs' });
    // A record's edit page is its own page.
    keepDraft('demo', '/order/update?id=5', { remark: 'five' }, T0);
    expect(readDraft('demo', '/order/update?id=6', T0)).toBeNull();
    expect(readDraft('demo', '/order/update?id=5', T0)?.values).toEqual({ remark: 'five' });
  });

  it('expire after DRAFT_TTL_MS and leave the browser then, every user’s', () => {
    keepDraft('demo', '/order/create', { remark: 'old' }, T0);
    keepDraft('demo2', '/item/create', { nameZh: 'old' }, T0);
    expect(readDraft('demo', '/order/create', T0 + DRAFT_TTL_MS - 1)).not.toBeNull();
    expect(readDraft('demo', '/order/create', T0 + DRAFT_TTL_MS)).toBeNull();
    // The expired draft of the other user went with that read: nothing of it is left stored.
    expect(JSON.stringify({ ...localStorage })).not.toContain('old');
    expect(Object.keys({ ...localStorage })).toEqual([]);
  });

  it('a newer draft of the page replaces the older; dropped, it is gone for that user only', () => {
    keepDraft('demo', '/order/create', { remark: 'first' }, T0);
    keepDraft('demo', '/order/create', { remark: 'second' }, T0 + 10);
    keepDraft('demo2', '/order/create', { remark: 'theirs' }, T0);
    expect(readDraft('demo', '/order/create', T0 + 20)?.values).toEqual({ remark: 'second' });
    dropDraft('demo', '/order/create', T0 + 20);
    expect(readDraft('demo', '/order/create', T0 + 20)).toBeNull();
    expect(readDraft('demo2', '/order/create', T0 + 20)?.values).toEqual({ remark: 'theirs' });
  });

  it('never keep a password, a secret or a file; dates come back as dates', () => {
    const file = new Blob(['x']);
    const values = {
      appKey: 'K',
      appSecret: 'S3CRET',
      user: { newPassword: 'pw', name: 'n' },
      image: [{ uid: 'rc-1', name: 'a.png', status: 'done', originFileObj: file }],
      attachment: file,
      sendDate: dayjs('2026-12-08T01:00:00Z'),
      items: [{ name: 'a', quantity: 2 }],
      empty: [],
    };
    const kept = storable(values);
    expect(kept).toEqual({
      appKey: 'K',
      user: { name: 'n' },
      sendDate: { $date: '2026-12-08T01:00:00.000Z' },
      items: [{ name: 'a', quantity: 2 }],
      empty: [],
    });
    keepDraft('demo', '/x', values, T0);
    const stored = JSON.stringify({ ...localStorage });
    expect(stored).not.toContain('S3CRET');
    expect(stored).not.toContain('pw');
    const back = readDraft('demo', '/x', T0)!.values;
    expect(dayjs.isDayjs(back.sendDate)).toBe(true);
    expect((back.sendDate as dayjs.Dayjs).toISOString()).toBe('2026-12-08T01:00:00.000Z');
  });

  it('the session’s end keeps the dirty tabs’ forms only, for the user it names', () => {
    registerDraftSource('/order/create', () => ({ remark: 'typed' }));
    registerDraftSource('/item/create', () => ({ nameZh: 'clean, not kept' }));
    expect(keepDirtyForms('demo', ['/order/create', '/closed-page'], T0)).toBe(1);
    expect(readDraft('demo', '/order/create', T0)?.values).toEqual({ remark: 'typed' });
    expect(readDraft('demo', '/item/create', T0)).toBeNull();
    // No user known: nothing kept under no one.
    registerDraftSource('/order/create', () => ({ remark: 'nobody' }));
    expect(keepDirtyForms(undefined, ['/order/create'], T0)).toBe(0);
    expect(readDraft('demo', '/order/create', T0)?.values).toEqual({ remark: 'typed' });
  });
});
