import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type CellValue, readFirstSheetRows } from '../src/lib/xlsx-rows.ts';
import { readZipDirectory } from '../src/lib/xlsx-guard.ts';
import { zipFiles } from './support/zip.ts';

async function rowsOf(buf: Buffer) {
  const rows: [number, CellValue[]][] = [];
  const r = await readFirstSheetRows(buf, readZipDirectory(buf)!, { onRow: (v, n) => rows.push([n, v.toArray()]) });
  return { rows, merged: r.merged };
}

/** A workbook written by hand, to reach the SpreadsheetML that ExcelJS never writes. */
function handmade(sheets: Record<string, string>, opts: { sst?: string; order?: string[]; store?: boolean } = {}) {
  const names = opts.order ?? Object.keys(sheets);
  const files = [
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        `<workbook xmlns:r="r"><sheets>${names.map((n, i) => `<sheet name="${n}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `<Relationships>${names.map((n, i) => `<Relationship Id="rId${i + 1}" Type="ws" Target="worksheets/${n}.xml"/>`).join('')}</Relationships>`,
      ),
    },
    ...Object.entries(sheets).map(([n, body]) => ({
      name: `xl/worksheets/${n}.xml`,
      data: Buffer.from(`<?xml version="1.0"?><worksheet><cols><col min="1"/></cols>${body}</worksheet>`),
      store: opts.store,
    })),
    ...(opts.sst ? [{ name: 'xl/sharedStrings.xml', data: Buffer.from(`<sst>${opts.sst}</sst>`) }] : []),
  ];
  return zipFiles(files);
}

describe('xlsx row reader', () => {
  it('reads what ExcelJS writes exactly as ExcelJS reads it', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('orders');
    ws.addRow(['订单号', 'Qty', 'Price', 'Flag', 'Note']);
    ws.addRow(['A-1', 3, 12.5, true, 'a & b <c> "d"']);
    ws.addRow([]);
    ws.addRow([
      'A-2',
      { formula: 'B2*2', result: 6 },
      { error: '#N/A' },
      false,
      { richText: [{ text: 'x' }, { text: 'y' }] },
    ]);
    ws.getRow(6).getCell(3).value = 'only C6';
    wb.addWorksheet('notes').addRow(['not read']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());

    const mine = await rowsOf(buf);
    const theirs: [number, unknown[]][] = [];
    const reader = new ExcelJS.stream.xlsx.WorkbookReader((await import('node:stream')).Readable.from([buf]), {
      sharedStrings: 'cache',
      styles: 'ignore',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const r = row as ExcelJS.Row;
        if ((r.values as unknown[]).some((v) => v !== undefined)) theirs.push([r.number, r.values as unknown[]]);
      }
      break;
    }
    // ExcelJS keeps rich text as runs; the reader joins them (callers join them anyway).
    const plain = theirs.map(([n, v]) => [
      n,
      v.map((x) =>
        x && typeof x === 'object' && 'richText' in x
          ? (x.richText as { text: string }[]).map((t) => t.text).join('')
          : x,
      ),
    ]);
    expect(mine.rows).toEqual(plain);
    expect(mine.rows.map(([n]) => n)).toEqual([1, 2, 4, 6]);
    expect(mine.rows[1]![1][5]).toBe('a & b <c> "d"');
    expect(mine.rows[2]![1][2]).toEqual({ formula: 'B2*2', result: 6 });
    expect(mine.merged).toBe(false);
  });

  it('reads the first sheet by workbook order, shared and inline strings, phonetics, escapes and formulas', async () => {
    const sst = [
      '<si><t>plain</t></si>',
      '<si><r><rPr><b/></rPr><t>東京</t></r><r><t xml:space="preserve"> 都</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si>',
      '<si><t>line_x000D_break &amp;&#x41;&#66;</t></si>',
      '<si/>',
    ].join('');
    const first = [
      '<sheetData>',
      '<row r="3"><c r="A3" t="s"><v>0</v></c><c r="C3" t="s"><v>1</v></c><c r="D3" t="s"><v>2</v></c></row>',
      '<row><c t="inlineStr"><is><t>inline &lt;x&gt;</t></is></c><c t="b"><v>1</v></c><c t="e"><v>#DIV/0!</v></c></row>',
      '<row r="7"><c r="B7"><f>SUM(A1:A2)</f><v>42</v></c><c r="C7" t="str"><f>A1&amp;"x"</f><v>ax</v></c>',
      '<c r="D7"><f t="shared" ref="D7:D8" si="0"/></c><c r="E7" s="2"/><c r="F7" t="s"><v>3</v></c><c\n r="G7"\n\tt="s"><v>0</v></c></row>',
      '<row r="8" spans="1:3"/>',
      '<row r="9"><c r="AA9"><v>-1.5E3</v></c></row>',
      '</sheetData><mergeCells count="1"><mergeCell ref="A9:B9"/></mergeCells>',
    ].join('');
    const buf = handmade(
      { other: '<sheetData><row r="1"><c r="A1"><v>9</v></c></row></sheetData>', orders: first },
      {
        sst,
        order: ['orders', 'other'],
      },
    );
    const { rows, merged } = await rowsOf(buf);
    const byRow = new Map(rows);
    expect([...byRow.keys()]).toEqual([3, 4, 7, 9]);
    expect(byRow.get(3)![1]).toBe('plain');
    expect(byRow.get(3)![3]).toBe('東京 都');
    expect(byRow.get(3)![4]).toBe('line\rbreak &AB');
    expect(byRow.get(4)!.slice(1)).toEqual(['inline <x>', true, { error: '#DIV/0!' }]);
    expect(byRow.get(7)![2]).toEqual({ formula: 'SUM(A1:A2)', result: 42 });
    expect(byRow.get(7)![3]).toEqual({ formula: 'A1&"x"', result: 'ax' });
    // A shared formula without a cached value: the caller reports it has no value.
    expect(byRow.get(7)![4]).toEqual({ formula: '', result: undefined });
    expect(byRow.get(7)![5]).toBeUndefined();
    expect(byRow.get(7)![6]).toBe('');
    // Attributes on separate lines, as some writers put them.
    expect(byRow.get(7)![7]).toBe('plain');
    expect(byRow.get(9)![27]).toBe(-1500);
    expect(merged).toBe(true);
  });

  it('streams rows that cross inflate chunks, stored or deflated, without losing or splitting any', async () => {
    const n = 30_000;
    const body = Array.from(
      { length: n },
      (_, i) =>
        `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>订单-${i}-${'x'.repeat(i % 97)}</t></is></c><c r="B${i + 2}"><v>${i}</v></c></row>`,
    ).join('');
    for (const store of [false, true]) {
      const buf = handmade({ sheet1: `<sheetData>${body}</sheetData>` }, { store });
      const seen: number[] = [];
      const { rows } = await rowsOf(buf);
      for (const [rowNo, v] of rows) {
        expect(v[1]).toBe(`订单-${rowNo - 2}-${'x'.repeat((rowNo - 2) % 97)}`);
        seen.push(v[2] as number);
      }
      expect(seen).toEqual(Array.from({ length: n }, (_, i) => i));
    }
  });

  it('refuses a cell pointing past the shared strings and a sheet the workbook does not hold', async () => {
    await expect(
      rowsOf(
        handmade(
          { sheet1: '<sheetData><row r="1"><c r="A1" t="s"><v>5</v></c></row></sheetData>' },
          { sst: '<si><t>a</t></si>' },
        ),
      ),
    ).rejects.toThrow(/shared string 5/);
    const buf = handmade({ sheet1: '<sheetData/>' }, { order: ['missing'] });
    await expect(rowsOf(buf)).rejects.toThrow(/sheet not found/);
  });
});
