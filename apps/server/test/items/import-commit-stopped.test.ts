import ExcelJS from 'exceljs';
import type { items as C } from '@console/contract';
import { beforeAll, expect, it } from 'vitest';
import { openResponse, sealRequest } from '../aes-client.ts';
import { createHarness, type Harness, type Instance, multipart } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { stopTooOften } from '../support/stopped.ts';
import { heldStore, INSTANCES_ENV } from '../support/two-instances.ts';
import { aesBlob, itemBody } from './helpers.ts';

/**
 * Issue 38, an item import's side: a commit whose runs keep being cut short (its process dies each
 * time) is not left "committing" for good: once the queue gives up on it, the import is failed
 * with `jobStoppedTooOften` in both languages and none of its items written. Both engines
 * (support/stopped.ts); the commit is held under way at its reading of the stored rows.
 */
const held = heldStore('get', (key) => key.endsWith('.json'));

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  demo = await h.login('demo');
});

/** An AES call on an instance, as the console makes it through the balancer. */
async function call(app: Instance['app'], path: string, body: unknown) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${demo}`, aes: '1', 'accept-language': 'en' },
    payload: JSON.stringify(sealRequest(demo, body)),
  });
  expect(res.statusCode, res.body).toBe(200);
  return openResponse(demo, res.json()) as C.ItemImport;
}

/** The template with `n` good rows under its own headers, uploaded: the preview. */
async function preview(n: number, group: string) {
  const t = await aesBlob(h, 'item/import/template', {}, demo);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(t.bytes as never);
  const sheet = wb.getWorksheet('items')!;
  const headers = (sheet.getRow(1).values as string[]).slice(1);
  const jans: string[] = [];
  for (let i = 0; i < n; i++) {
    const it = itemBody();
    jans.push(it.jan);
    const r: Record<string, string | number> = {
      JAN: it.jan,
      'Chinese name': it.nameZh,
      'English name': it.nameEn,
      Specs: it.specs,
      Category: '2',
      'Net weight (g)': 120,
      'Clearance price (CNY)': '45.5',
      'Declaration price (JPY)': '800',
      Origin: 'jp',
      'Tax code': '04010100',
      Group: group,
    };
    const row = sheet.getRow(i + 2);
    headers.forEach((hd, c) => {
      const key = Object.keys(r).find((k) => hd.endsWith(`/ ${k}`));
      if (key !== undefined) row.getCell(c + 1).value = r[key]!;
    });
    row.commit();
  }
  const m = multipart(sealRequest(demo, {}), { name: `${group}.xlsx`, data: Buffer.from(await wb.xlsx.writeBuffer()) });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/item/import/upload',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, aes: '1', 'accept-language': 'en' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  const p = openResponse(demo, res.json()) as C.ItemImport;
  expect(p.validRows).toBe(n);
  return { id: p.id, jans };
}

it('a commit stopped too often fails its import with the reason, in both languages', async () => {
  const { id, jans } = await preview(2, 'stopped');
  const g = held.closeGate();
  expect((await call(h.app, 'item/import/confirm', { id })).status).toBe('committing');
  await waitFor('the commit under way', () => g.reached, 20_000);
  await stopTooOften(h, 'item-import-commit');
  await waitFor(
    'the import failed',
    async () =>
      (await h.db.selectFrom('item_imports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status !==
      'committing',
    30_000,
  );
  g.open();
  const m = await h.db
    .selectFrom('item_imports')
    .select(['status', 'error_message', 'valid_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(m).toMatchObject({ status: 'failed', valid_key: null });
  expect(m.error_message).toMatch(
    /^该任务多次在完成前被中断.* \/ This job was stopped before it finished too many times/,
  );
  // As the page reads it.
  expect((await call(h.app, 'item/import/progress', { id })).errorMessage).toBe(m.error_message);
  // The held run, let go, writes nothing: the import ended.
  await new Promise((r) => setTimeout(r, 500));
  const items = await h.db.selectFrom('items').select('id').where('jan', 'in', jans).execute();
  expect(items).toEqual([]);
  expect(
    (await h.db.selectFrom('item_imports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
  ).toBe('failed');
}, 60_000);
