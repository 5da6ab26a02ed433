import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from './aes-client.ts';
import { baseRow, fill, settle, template, upload as batchUpload } from './batches/helpers.ts';
import { createHarness, type Harness, multipart } from './harness.ts';
import { parseBudgetMs } from '../src/lib/parse-budget.ts';
import { readSheetRows } from '../src/lib/sheet-rows.ts';
import { readFirstSheetRows } from '../src/lib/xlsx-rows.ts';
import { readZipDirectory } from '../src/lib/zip.ts';
import { sheetWorkbook } from './support/zip.ts';

/**
 * Issue 26, finding 2: a workbook of blank cells at column XFD passed every container check, and
 * the row reader made (and its callers walked) a 16,384-slot row for each row, blank rows
 * counting toward no limit: three such files from one customer held everyone's sheets for
 * minutes. Rows are now read sparsely (a row costs its cells), blank rows count toward a bound,
 * and the parse time limit follows the file's size.
 */
const blankAtXfd = (r: number) => `<c r="XFD${r}" t="inlineStr"><is><t></t></is></c>`;
/** `count` rows, each one text cell in A and, when `far`, a blank one at XFD. */
function sheet(count: number, { far, text }: { far: boolean; text: boolean }) {
  const out: string[] = [];
  for (let r = 1; r <= count; r++)
    out.push(
      `<row r="${r}">${text ? `<c r="A${r}" t="inlineStr"><is><t>W${r}</t></is></c>` : ''}${far ? blankAtXfd(r) : ''}</row>`,
    );
  return sheetWorkbook(out.join(''));
}
/** The red team's file: 40,000 rows of one blank cell at XFD. */
const hostile = () => sheet(40_000, { far: true, text: false });

const seconds = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  const r = await f();
  return { r, s: (performance.now() - t) / 1000 };
};

describe('finding 26.2: the row reader costs the cells present, not the last column', () => {
  it('a row with a blank cell at XFD holds the cells present only', async () => {
    const wb = sheet(3, { far: true, text: true });
    const widths: number[] = [];
    await readFirstSheetRows(wb, readZipDirectory(wb)!, {
      onRow: (row) => widths.push((row as { values: unknown[] }).values.length),
    });
    // Two cells each (A and XFD), not a 16,385-slot array.
    expect(widths).toEqual([2, 2, 2]);
  });

  it('20,000 rows with a blank cell at XFD read about as fast as the same rows without it (same run)', async () => {
    const near = sheet(20_000, { far: false, text: true });
    const far = sheet(20_000, { far: true, text: true });
    await readSheetRows(near, 20_000); // warm: module loading is not the reader's cost
    const a = await seconds(() => readSheetRows(near, 20_000));
    const b = await seconds(() => readSheetRows(far, 20_000));
    expect(b.r).toEqual(a.r);
    expect((a.r as { type: string }).type).toBe('done');
    // Before: 30-60 times slower (each row walked 16,384 slots). Now the far cell is one more cell.
    expect(b.s).toBeLessThan(a.s * 3 + 0.5);
  }, 180_000);

  it('blank rows count: a sheet listing more rows than the limit allows is refused with the reason', async () => {
    const r = await readSheetRows(sheet(12_000, { far: true, text: false }), 100);
    expect(r).toEqual({ type: 'problem', key: 'sheetTooManyListedRows', params: { max: 100 + 1 + 1000 } });
  }, 180_000);
});

describe('finding 26.2: the parse time limit follows the file', () => {
  it('a small file gets seconds, a large one more, never past the configured cap', () => {
    const mib = 1024 * 1024;
    const small = parseBudgetMs(380 * 1024, 300_000);
    expect(small).toBeLessThan(20_000);
    expect(parseBudgetMs(6 * mib, 300_000)).toBeGreaterThan(small * 3);
    expect(parseBudgetMs(30 * mib, 300_000)).toBe(300_000);
    expect(parseBudgetMs(380 * 1024, 300)).toBe(300);
  });
});

describe('finding 26.2: another customer is not starved by hostile sheets', () => {
  let h: Harness;
  let demo: string;
  let demo2: string;
  beforeAll(async () => {
    h = await createHarness({ env: { PARSE_WORKERS: '1' } });
    demo = await h.login('demo');
    demo2 = await h.login('demo2');
  });

  async function storageUpload(token: string, file: Buffer, lang = 'en') {
    const m = multipart(sealRequest(token, { origin: 'counter' }), { name: 'w.xlsx', data: file });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/storageOrder/createBatch',
      headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, aes: '1', 'accept-language': lang },
      payload: m.payload,
    });
    const body = res.json();
    return { status: res.statusCode, data: res.statusCode === 200 ? (openResponse(token, body) as any) : body.data };
  }
  async function oneRowSheet() {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').addRow(['NOSUCH0001']);
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  it('a hostile storage sheet is refused in both languages, saying blank rows count', async () => {
    const file = hostile();
    const en = await storageUpload(demo, file);
    expect(en.status).toBe(422);
    // The storage sheet takes 10,000 waybills (and a header): as many blank rows again are let by.
    expect(en.data).toEqual({
      file: [
        'The sheet lists more than 20003 rows, blank ones included: delete the empty rows below the data and upload it again.',
      ],
    });
    const zh = await storageUpload(demo, file, 'zh-CN');
    expect(zh.status).toBe(422);
    expect(zh.data).toEqual({ file: ['表格（含空行）超过 20003 行：请删除数据下方的空行后重新上传。'] });
  }, 180_000);

  it("demo2's one-row sheet and one-row import complete while demo has three hostile files queued", async () => {
    const file = hostile();
    const victimSheet = await oneRowSheet();
    const tpl = await template(h, demo2, 'download/importOrder');
    const victimImport = await fill(tpl, [baseRow(1)]);
    // Baselines in this run: the victim alone, and one hostile sheet alone.
    const alone = await seconds(() => storageUpload(demo2, victimSheet));
    expect(alone.r).toMatchObject({ status: 200 });
    const oneHostile = await seconds(() => storageUpload(demo, file));

    // Three hostile storage sheets and two hostile imports at once, then the victim's two uploads.
    const hostileSheets = [1, 2, 3].map(() => storageUpload(demo, file));
    const hostileImports = await Promise.all(
      [1, 2].map(() =>
        batchUpload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'o.xlsx', data: file }),
      ),
    );
    const [sheetAnswer, importAnswer] = await Promise.all([
      storageUpload(demo2, victimSheet),
      batchUpload(h, 'order/batch/createImport', demo2, { channel: 'JP' }, { name: 'o.xlsx', data: victimImport }),
    ]);
    expect(sheetAnswer.status).toBe(200);
    expect(sheetAnswer.data.refused.map((l: any) => l.outcome)).toEqual(['notFound']);
    expect(importAnswer.status).toBe(200);
    const victimBatch = await settle(h, demo2, importAnswer.body.data.id);
    expect(victimBatch.status).toBe('preview');

    // The hostile files are refused (storage) or read cheaply to "no header" (imports).
    for (const a of await Promise.all(hostileSheets)) expect(a.status).toBe(422);
    for (const up of hostileImports) {
      const p = await settle(h, demo, up.body.data.id);
      expect(p.status).toBe('failed');
      expect(p.errorMessage).not.toMatch(/longer than/);
    }
    // A hostile sheet costs about what a one-row sheet costs (a worker's start), not minutes.
    expect(oneHostile.s).toBeLessThan(alone.s * 5 + 1);
  }, 600_000);
});
