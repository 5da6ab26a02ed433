import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { makeKey, v1 } from './helpers.ts';

/**
 * Issue 39 item 4, a webhook endpoint's URL checked when it is registered or edited, through both
 * doors (v1 `webhook-endpoints`, the console's `webhook/endpoint/*`, one service): http or https
 * only, a host, no user:password, no fragment, at most 2000 characters; plain http only where
 * WEBHOOK_ALLOW_HTTP is on (off here, as in production). Each refusal is a 422 on `url` in the
 * caller's language.
 */
let h: Harness;
let demo: string;
let key: string;
let endpointId: number;

beforeAll(async () => {
  h = await createHarness();
  demo = await h.login('demo');
  key = (await makeKey(h, demo, { scopes: ['webhooks:manage'] })).key;
  const made = await v1(h.app, 'POST', 'webhook-endpoints', key, {
    body: { url: 'https://hooks.example.com/in', eventTypes: ['order.created'] },
  });
  expect(made.status).toBe(200);
  endpointId = made.body.data.id;
});

const refused: [string, string, RegExp, RegExp][] = [
  // [why, url, en, zh]
  ['another scheme (ftp)', 'ftp://hooks.example.com/in', /http:\/\/ or https:\/\//, /http:\/\/ 或 https:\/\//],
  ['another scheme (javascript)', 'javascript:alert(1)', /http:\/\/ or https:\/\//, /http:\/\/ 或 https:\/\//],
  ['no host', 'https://', /full web address/, /完整的网址/],
  ['credentials', 'https://user:pw@hooks.example.com/in', /user name or password/, /用户名或密码/],
  ['fragment', 'https://hooks.example.com/in#top', /#/, /#/],
  ['over 2000 characters', `https://hooks.example.com/${'a'.repeat(2000)}`, /2000/, /2000/],
  ['plain http', 'http://hooks.example.com/in', /https:\/\//, /https:\/\//],
];

describe('a refused URL: 422 on url, in zh and en, through both doors', () => {
  it.each(refused)('%s', async (_why, url, en, zh) => {
    const v1En = await v1(h.app, 'POST', 'webhook-endpoints', key, {
      body: { url, eventTypes: ['order.created'] },
      headers: { 'accept-language': 'en' },
    });
    expect([v1En.status, Object.keys(v1En.body.data)]).toEqual([422, ['url']]);
    expect(v1En.body.data.url.join(' ')).toMatch(en);
    const v1Zh = await v1(h.app, 'POST', `webhook-endpoints/${endpointId}`, key, {
      body: { url },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect([v1Zh.status, Object.keys(v1Zh.body.data)]).toEqual([422, ['url']]);
    expect(v1Zh.body.data.url.join(' ')).toMatch(zh);
    const consoleCreate = await h.post('webhook/endpoint/create', { url, eventTypes: ['order.created'] }, demo, {
      'accept-language': 'en',
    });
    expect([consoleCreate.status, Object.keys(consoleCreate.body.data)]).toEqual([422, ['url']]);
    expect(consoleCreate.body.data.url.join(' ')).toMatch(en);
    const consoleEdit = await h.post('webhook/endpoint/update', { id: endpointId, url }, demo, {
      'accept-language': 'zh-CN',
    });
    expect([consoleEdit.status, Object.keys(consoleEdit.body.data)]).toEqual([422, ['url']]);
    expect(consoleEdit.body.data.url.join(' ')).toMatch(zh);
  });

  it('the endpoint kept its URL through the refused edits; a good https one is taken', async () => {
    const now = await v1(h.app, 'GET', `webhook-endpoints/${endpointId}`, key);
    expect(now.body.data.url).toBe('https://hooks.example.com/in');
    const edit = await h.post(
      'webhook/endpoint/update',
      { id: endpointId, url: 'https://hooks.example.com:8443/v2?a=1' },
      demo,
    );
    expect([edit.status, edit.body.data.url]).toEqual([200, 'https://hooks.example.com:8443/v2?a=1']);
  });
});

describe('WEBHOOK_ALLOW_HTTP on', () => {
  it('takes a plain http URL (the rest of the rules still hold)', async () => {
    // The same database with the setting on: what a server started with it serves.
    const app = await h.restarted({ config: { ...h.config, WEBHOOK_ALLOW_HTTP: true } });
    const ok = await v1(app, 'POST', 'webhook-endpoints', key, {
      body: { url: 'http://hooks.example.com/in', eventTypes: ['order.created'] },
    });
    expect([ok.status, ok.body.data.url]).toEqual([200, 'http://hooks.example.com/in']);
    const bad = await v1(app, 'POST', 'webhook-endpoints', key, {
      body: { url: 'http://u:p@hooks.example.com/in', eventTypes: ['order.created'] },
    });
    expect([bad.status, Object.keys(bad.body.data)]).toEqual([422, ['url']]);
  });
});
