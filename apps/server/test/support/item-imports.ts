import ExcelJS from 'exceljs';
import type { items as C } from '@console/contract';
import { expect } from 'vitest';
import { openResponse, sealRequest } from '../aes-client.ts';
import { type Harness, type Instance, multipart } from '../harness.ts';
import { aesBlob, itemBody } from '../items/helpers.ts';

/** Item imports as the console makes them (items-import-instances, import-commit-stopped). */

/** An AES call on an instance, as the console makes it through the balancer. */
export async function importCall(app: Instance['app'], token: string, path: string, body: unknown) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      aes: '1',
      'accept-language': 'en',
    },
    payload: JSON.stringify(sealRequest(token, body)),
  });
  expect(res.statusCode, res.body).toBe(200);
  return openResponse(token, res.json()) as C.ItemImport;
}

/** The template with `n` good rows under its own headers, uploaded: the preview. */
export async function importPreview(h: Harness, token: string, n: number, group: string) {
  const t = await aesBlob(h, 'item/import/template', {}, token);
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
  const m = multipart(sealRequest(token, {}), {
    name: `${group}.xlsx`,
    data: Buffer.from(await wb.xlsx.writeBuffer()),
  });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/item/import/upload',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, aes: '1', 'accept-language': 'en' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  const p = openResponse(token, res.json()) as C.ItemImport;
  expect(p.validRows).toBe(n);
  return { id: p.id, jans };
}
