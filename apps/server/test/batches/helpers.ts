import { eanCheckDigit, idCardCheckChar } from '@console/contract';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { columnLetter } from '../../src/lib/workbook-writer.ts';
import { type Harness, multipart as sharedMultipart } from '../harness.ts';
import { sheetWorkbook } from '../support/zip.ts';

/**
 * The apps of a test file that run jobs, one at a time: `next` stops the ones before (they keep
 * answering calls) and starts a new app (a restarted server, with the commit's test hooks) that
 * runs the jobs from then on. Parse and commit are queue jobs, which any running worker may take:
 * several apps in one test process all poll the SQLite queue, where in production one process
 * does, and a hook acts only in the app that runs the job.
 */
export function jobWorkers(h: Harness) {
  const running: FastifyInstance[] = [h.app];
  const stopAll = async () => {
    for (const w of running.splice(0)) await w.jobs.stop();
  };
  return {
    stopAll,
    async next(hooks: Parameters<Harness['restarted']>[0] = {}) {
      await stopAll();
      const app = await h.restarted(hooks);
      running.push(app);
      return app;
    },
  };
}

/** A multipart body whose file defaults to the xlsx content type. */
export const multipart = (fields: Record<string, string>, file?: { name: string; data: Buffer; type?: string }) =>
  sharedMultipart(fields, file, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');

export async function upload(
  h: Harness,
  path: string,
  token: string,
  fields: Record<string, string>,
  file?: { name: string; data: Buffer },
  lang = 'en',
) {
  const { payload, contentType } = multipart(fields, file);
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}`, 'accept-language': lang },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

export async function download(h: Harness, path: string, token: string, body: unknown = {}) {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, data: res.rawPayload, headers: res.headers };
}

/**
 * Uploads `rows` as a JP batch on the import template and waits for its clean preview (every row
 * valid): what a commit test starts from.
 */
export async function uploadPreview(h: Harness, token: string, rows: RowValues[]) {
  const tpl = await template(h, token, 'download/importOrder');
  const up = await upload(
    h,
    'order/batch/createImport',
    token,
    { channel: 'JP' },
    { name: 'o.xlsx', data: await fill(tpl, rows) },
  );
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const p = await settle(h, token, up.body.data.id);
  expect(p).toMatchObject({ status: 'preview', invalidRows: 0, orderCount: rows.length });
  return p;
}

/** Polls progress until the batch leaves parsing/committing. */
export async function settle(h: Harness, token: string, id: number, lang = 'en') {
  for (let i = 0; i < 600; i++) {
    const r = await h.post('order/batch/progress', { id }, token, { 'accept-language': lang });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    if (!['parsing', 'committing'].includes(r.body.data.status)) return r.body.data;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('batch did not settle');
}

export const jan = (n: number) => {
  const d = `49${String(n).padStart(10, '0')}`;
  return `${d}${eanCheckDigit(d)}`;
};
export const idCard = (birth = '19900101', area = '110105', seq = '123') => {
  const f = `${area}${birth}${seq}`;
  return f + idCardCheckChar(f);
};

export type RowValues = Record<string, string | number | null>;
export const baseRow = (i: number, extra: RowValues = {}): RowValues => ({
  orderNo: `T${String(i).padStart(6, '0')}`,
  boxNo: 'BOX-1',
  recipientName: '王伟',
  recipientPhone: '13800138000',
  recipientIdCard: idCard(),
  recipientProvince: '北京市',
  recipientCity: '北京市',
  recipientDistrict: '朝阳区',
  recipientAddress: '建国路 88 号',
  itemName: '洗面奶',
  jan: jan(i),
  quantity: 2,
  unitPrice: 1200,
  ...extra,
});

/** The English header of each row key (the template's headers read `中文 / English`). */
const KEY_TO_EN: Record<string, string> = {
  channel: 'Channel',
  orderNo: 'Order No.',
  boxNo: 'Box No.',
  recipientName: 'Recipient Name',
  recipientPhone: 'Recipient Phone',
  recipientIdCard: 'Recipient ID Card',
  recipientProvince: 'Province',
  recipientCity: 'City',
  recipientDistrict: 'District',
  recipientAddress: 'Address',
  itemName: 'Item Name',
  jan: 'JAN',
  quantity: 'Quantity',
  unitPrice: 'Unit Price',
  currency: 'Currency',
  clearanceCompany: 'Clearance Company',
  remark: 'Remark',
  brand: 'Brand',
  userRefNo: 'User Ref. No.',
  senderName: 'Sender Name',
};

/** Fills a downloaded template: row 2 (the example) is kept, data from row 3, columns found by header. */
export async function fill(
  template: Buffer,
  rows: RowValues[],
  mutate?: (ws: ExcelJS.Worksheet) => void,
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as never);
  const ws = wb.getWorksheet('orders')!;
  const colOf = new Map<string, number>();
  ws.getRow(1).eachCell((cell, col) => {
    // "Unit Price (JPY)": the currency a fixed channel's template names is not part of the name.
    const en = String(cell.value)
      .split(' / ')[1]!
      .replace(/ \([A-Z]{3}\)$/, '');
    colOf.set(en, col);
  });
  rows.forEach((r, i) => {
    const row = ws.getRow(3 + i);
    for (const [k, v] of Object.entries(r)) {
      const col = colOf.get(KEY_TO_EN[k]!);
      if (col && v !== null) row.getCell(col).value = v;
    }
  });
  mutate?.(ws);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * What `fill` makes, written as the sheet's XML (inline strings) instead of through ExcelJS: the
 * template's header row and the rows from row 3. For sheets of tens of thousands of rows, which
 * ExcelJS takes seconds to write.
 */
export async function fastFill(template: Buffer, rows: RowValues[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as never);
  const head: string[] = [];
  wb.getWorksheet('orders')!
    .getRow(1)
    .eachCell((cell, col) => (head[col - 1] = String(cell.value)));
  const keyOf = new Map(Object.entries(KEY_TO_EN).map(([k, name]) => [name, k]));
  const keys = head.map((t) => keyOf.get(t.split(' / ')[1]!.replace(/ \([A-Z]{3}\)$/, '')));
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const cell = (r: number, c: number, v: string | number) =>
    typeof v === 'number'
      ? `<c r="${columnLetter(c)}${r}"><v>${v}</v></c>`
      : `<c r="${columnLetter(c)}${r}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`;
  const out = [`<row r="1">${head.map((t, i) => cell(1, i + 1, t)).join('')}</row>`];
  rows.forEach((values, i) => {
    const r = 3 + i;
    const cells: string[] = [];
    keys.forEach((key, c) => {
      const v = key === undefined ? undefined : (values as Record<string, string | number | null | undefined>)[key];
      if (v !== undefined && v !== null) cells.push(cell(r, c + 1, v));
    });
    out.push(`<row r="${r}">${cells.join('')}</row>`);
  });
  return sheetWorkbook(out.join(''));
}

export async function template(h: Harness, token: string, path: string) {
  const r = await download(h, path, token);
  if (r.status !== 200) throw new Error(`template ${path}: ${r.status}`);
  return r.data;
}
