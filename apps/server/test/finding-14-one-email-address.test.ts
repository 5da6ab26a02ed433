import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { aes } from './items/helpers.ts';
import { validRecipient } from './support/orders.ts';

/**
 * Finding 14 (issue 26): a receive e-mail of `x,y,victim@evil.example` was accepted and the
 * permit went to the last address. Every e-mail field of the contract takes one address only;
 * each of these answers 422 on that field, and a plain address passes.
 */
const notOneAddress = [
  'x,y,victim@evil.example',
  'a,b@x.example',
  'a@x.example,b@y.example',
  'a@x.example;b@y.example',
  'a;b@x.example',
  '"a b"@x.example',
  '"a"@x.example',
  'a@x.example\nBcc: b@y.example',
  'a@x.example\r\nb@y.example',
  'Name <a@x.example>',
  '<a@x.example>',
  'a@x.example>',
  'a(comment)@x.example',
  'a\\b@x.example',
  'a@[127.0.0.1]',
  '.a@x.example',
  'a.@x.example',
  'a..b@x.example',
  'a@x..example',
  'a@-x.example',
  'a@x-.example',
  'a@x.example.',
  'a@x',
  'a@@x.example',
  'a:b@x.example',
];
const oneAddress = ['docs@test.example', 'first.last+tag@sub.example.co.jp', "o'neil_x-y@x-y.example"];

let h: Harness;
let demo: string;
let admin: string;
let nominationId: number;
beforeAll(async () => {
  h = await createHarness();
  [demo, admin] = await Promise.all([h.login('demo'), h.login('admin')]);
  const created = await aes(
    h,
    'export/create',
    {
      nameJa: 'テスト輸出株式会社',
      nameEn: 'Mail Check K.K.',
      corporateNumber: '1180301018771',
      addressEn: '1 Toyota-cho, Toyota, Aichi',
      tel: '0565-28-2121',
      idMark: 'MCK',
      receiveEmail: 'docs@test.example',
    },
    demo,
  );
  expect(created.status).toBe(200);
  nominationId = created.data.id;
});

describe('finding 14: every e-mail field takes exactly one address', () => {
  it('finding 14: user/updateReceiveEmail answers 422 on receiveEmail for a list, a display name, a quote or a line break', async () => {
    for (const receiveEmail of notOneAddress) {
      const r = await aes(h, 'user/updateReceiveEmail', { id: nominationId, receiveEmail }, demo);
      expect(r.status, JSON.stringify(receiveEmail)).toBe(422);
      expect(Object.keys(r.body.data), receiveEmail).toEqual(['receiveEmail']);
    }
    const stored = await h.db
      .selectFrom('export_nominations')
      .select('receive_email')
      .where('id', '=', nominationId)
      .executeTakeFirstOrThrow();
    expect(stored.receive_email).toBe('docs@test.example');
    for (const receiveEmail of oneAddress) {
      const r = await aes(h, 'user/updateReceiveEmail', { id: nominationId, receiveEmail }, demo);
      expect(r.status, receiveEmail).toBe(200);
      expect(r.data.receiveEmail).toBe(receiveEmail);
    }
  });

  it('finding 14: a customer contact e-mail is one address too', async () => {
    for (const [i, contactEmail] of notOneAddress.entries()) {
      const r = await h.post('admin/customer/create', { code: `MAIL${i}`, name: 'Mail Co', contactEmail }, admin);
      expect(r.status, JSON.stringify(contactEmail)).toBe(422);
      expect(Object.keys(r.body.data), contactEmail).toEqual(['contactEmail']);
    }
    const ok = await h.post(
      'admin/customer/create',
      { code: 'MAILOK', name: 'Mail Co', contactEmail: oneAddress[1] },
      admin,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.contactEmail).toBe(oneAddress[1]);
  });

  it('finding 14: a recipient e-mail is one address too (empty allowed)', async () => {
    for (const email of notOneAddress) {
      const r = await h.post('recipient/create', { ...validRecipient, email }, demo);
      expect(r.status, JSON.stringify(email)).toBe(422);
      expect(Object.keys(r.body.data), email).toEqual(['email']);
    }
    for (const email of ['', oneAddress[0]]) {
      const r = await h.post('recipient/create', { ...validRecipient, email }, demo);
      expect(r.status, email).toBe(200);
    }
  });
});
