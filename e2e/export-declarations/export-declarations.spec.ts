/**
 * Japanese export declarations as a customer uses them (issue 15): a declaration filled in the
 * row (a zero amount refused with the §5 message first), then cleared; a workbook with one bad
 * row previewed, nothing importable, and its error workbook downloaded and read; the file fixed
 * and imported (a run on the job queue the dialog waits for). Then the three workbooks downloaded
 * and read, the by-waybill one filled and uploaded back; an operator attaches a permit PDF and
 * the customer downloads it and reads it.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('export declarations: fill inline, clear, batch upload with one bad row and its error workbook', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const token = await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);

  await page.goto(`${MAIN}/home/order/exportDeclarations`);
  const table = page.getByTestId('decl-table');
  // The seeded declarable order without a declaration (seed/export-declarations.ts).
  const row = table.locator('tr[data-order-no="DMX100002"]');
  await expect(row).toBeVisible();

  // Inline: a zero amount is refused on the field, then a real one is saved.
  await row.getByTestId('decl-edit').click();
  await row.getByTestId('decl-edit-name').fill('Silk scarf');
  await row.getByTestId('decl-edit-amount').fill('0');
  await row.getByTestId('decl-save').click();
  await expect(row.getByTestId('decl-error-amountJpy')).toBeVisible();
  await row.getByTestId('decl-edit-amount').fill('250000');
  await row.getByTestId('decl-save').click();
  await expect(row).toContainText('Silk scarf');
  await expect(row).toContainText('250,000');
  await expect(row.getByTestId('decl-edit-name')).toHaveCount(0);
  type L = { list: { orderNo: string; declared: boolean; productName: string | null; amountJpy: string | null }[] };
  const read = async () =>
    (await api<L>(request, 'exportDeclarations', { orderNos: 'DMX100002' }, token)).body.data.list[0]!;
  expect(await read()).toMatchObject({ declared: true, productName: 'Silk scarf', amountJpy: '250000' });

  // Both emptied: the declaration is cleared.
  await row.getByTestId('decl-edit').click();
  await row.getByTestId('decl-edit-name').fill('');
  await row.getByTestId('decl-edit-amount').fill('');
  await row.getByTestId('decl-save').click();
  await expect(row).not.toContainText('Silk scarf');
  await expect.poll(async () => (await read()).declared).toBe(false);

  // A workbook by order number with one bad row (a zero amount): preview, no import, errors.
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('x');
  ws.addRow(['Order No', 'Product name', 'Amount (JPY)']);
  ws.addRow(['DMX100002', 'Vase', 260000]);
  ws.addRow(['DMX100001', 'Watch', 0]);
  await page.getByTestId('decl-upload').click();
  await page
    .getByTestId('decl-batch-file')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'declarations.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
  await page.getByTestId('decl-batch-preview').click();
  const result = page.getByTestId('decl-batch-result');
  await expect(result).toContainText('DMX100001');
  await expect(page.getByTestId('decl-batch-confirm')).toBeDisabled();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('decl-batch-errors').click()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile((await download.path())!)) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  expect(sheet.rowCount).toBe(2);
  expect(String(sheet.getRow(2).getCell(1).value)).toBe('DMX100001');
  expect(String(sheet.getRow(2).getCell(5).value)).toBe('3');
  // Nothing was imported: the good row waits for a file without errors.
  expect((await read()).declared).toBe(false);

  // The file fixed: previewed clean, confirmed; the rows are written by a run on the server's job
  // queue (issue 27), which the dialog waits for before it says they are imported and closes.
  ws.spliceRows(3, 1);
  await page
    .getByTestId('decl-batch-file')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'declarations-fixed.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
  await page.getByTestId('decl-batch-preview').click();
  await expect(page.getByTestId('decl-batch-confirm')).toBeEnabled();
  await page.getByTestId('decl-batch-confirm').click();
  await expect(page.getByText(/已导入 1 行|1 rows imported/)).toBeVisible();
  await expect(page.getByTestId('decl-batch-result')).toHaveCount(0);
  expect(await read()).toMatchObject({ declared: true, productName: 'Vase', amountJpy: '260000' });
  await expect(row).toContainText('Vase');
  expect(errors).toEqual([]);
  await context.close();
});

/** A one-page PDF whose text is `text` (ASCII): what an operator attaches as an export permit. */
function onePagePdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A downloaded workbook's first sheet as text cells, header first. */
async function sheetCells(path: string): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile(path)) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((r) => rows.push(Array.from({ length: sheet.columnCount }, (_, i) => r.getCell(i + 1).text)));
  return rows;
}

test('export declarations: the three workbooks of the listed rows, one filled by waybill and uploaded, a permit PDF', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ acceptDownloads: true });
  const token = await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);
  const download = async (testId: string) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
    return (await d.path())!;
  };

  // The seeded declared orders (seed/export-declarations.ts): DMX100001 (Wristwatch, 294000) and
  // DMX100003 (Camera lens, 90000); the list filtered to them, which the downloads follow.
  await page.goto(`${MAIN}/home/order/exportDeclarations`);
  await page.getByTestId('decl-filter-nos').fill('DMX100001\nDMX100003');
  await page.getByTestId('decl-search').click();
  const table = page.getByTestId('decl-table');
  await expect(table.locator('tbody tr[data-order-no]')).toHaveCount(2);

  // By waybill (exportDeclaration/download2): the waybill first, then name, amount, order number.
  const byWaybillFile = await download('decl-download2');
  const byWaybill = await sheetCells(byWaybillFile);
  expect(byWaybill[0]!.slice(0, 4)).toEqual(['运单号', '品名', '金额(JPY)', '订单号']);
  expect(byWaybill.slice(1).map((r) => r.slice(0, 4))).toEqual(
    expect.arrayContaining([
      ['DMXW100001JP', 'Wristwatch', '294000', 'DMX100001'],
      ['DMXW100003JP', 'Camera lens', '90000', 'DMX100003'],
    ]),
  );
  expect(byWaybill).toHaveLength(3);

  // The same workbook, DMX100003's row refilled and the other taken out, uploaded back by waybill
  // (exportDeclaration/updatebatch2): previewed clean, confirmed, stored.
  const filled = new ExcelJS.Workbook();
  await filled.xlsx.load((await readFile(byWaybillFile)) as unknown as ArrayBuffer);
  const ws = filled.worksheets[0]!;
  const keep = ws.getRow(2).getCell(1).text === 'DMXW100003JP' ? 2 : 3;
  ws.getRow(keep).getCell(2).value = 'Telephoto lens';
  ws.getRow(keep).getCell(3).value = 95000;
  ws.spliceRows(keep === 2 ? 3 : 2, 1);
  await page.getByTestId('decl-upload2').click();
  await page
    .getByTestId('decl-batch-file')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'by-waybill.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await filled.xlsx.writeBuffer()),
    });
  await page.getByTestId('decl-batch-preview').click();
  await expect(page.getByTestId('decl-batch-confirm')).toBeEnabled();
  await page.getByTestId('decl-batch-confirm').click();
  await expect(page.getByText('已导入 1 行')).toBeVisible();
  type L = { list: { orderNo: string; productName: string | null; amountJpy: string | null }[] };
  const listed = (await api<L>(request, 'exportDeclarations', { orderNos: 'DMX100001 DMX100003' }, token)).body.data
    .list;
  expect(listed.map((r) => [r.orderNo, r.productName, r.amountJpy]).sort()).toEqual([
    ['DMX100001', 'Wristwatch', '294000'],
    ['DMX100003', 'Telephoto lens', '95000'],
  ]);
  await expect(table.locator('tr[data-order-no="DMX100003"]')).toContainText('Telephoto lens');

  // By order number (exportDeclaration/download): what was just stored.
  const byOrder = await sheetCells(await download('decl-download'));
  expect(byOrder[0]!.slice(0, 4)).toEqual(['订单号', '品名', '金额(JPY)', '运单号']);
  expect(
    byOrder
      .slice(1)
      .map((r) => r.slice(0, 4))
      .sort(),
  ).toEqual([
    ['DMX100001', 'Wristwatch', '294000', 'DMXW100001JP'],
    ['DMX100003', 'Telephoto lens', '95000', 'DMXW100003JP'],
  ]);

  // The broker's sheet (exportDeclaration/downloadDeclareAtCustoms): one row per order line, each
  // carrying its declaration.
  const customs = await sheetCells(await download('decl-download-customs'));
  expect(customs[0]!.slice(0, 4)).toEqual(['申报单(订单号)', '运单号', '申报品名', '申报金额(JPY)']);
  const declarations = new Set(customs.slice(1).map((r) => r.slice(0, 4).join('|')));
  expect([...declarations].sort()).toEqual([
    'DMX100001|DMXW100001JP|Wristwatch|294000',
    'DMX100003|DMXW100003JP|Telephoto lens|95000',
  ]);

  // An operator attaches the permit PDF to DMX100003's declaration.
  const ops = await browser.newContext();
  await loginByCookie(ops, request, 'operator');
  const op = await ops.newPage();
  const opErrors = watchPageErrors(op);
  await op.goto(`${MAIN}/home/order/exportDeclarations`);
  await op.getByTestId('decl-filter-nos').fill('DMX100003');
  await op.getByTestId('decl-search').click();
  const opRow = op.getByTestId('decl-table').locator('tr[data-order-no="DMX100003"]');
  await expect(opRow.getByTestId('decl-permit-download')).toHaveCount(0);
  await opRow.locator('input[type=file]').setInputFiles({
    name: 'permit.pdf',
    mimeType: 'application/pdf',
    buffer: onePagePdf('EXPORT PERMIT DMX100003 Telephoto lens'),
  });
  await expect(opRow.getByTestId('decl-permit-download')).toBeVisible();
  expect(opErrors).toEqual([]);
  await ops.close();

  // The customer downloads it (order/downloadPermitPdf): the operator's one page and its text.
  await page.getByTestId('decl-search').click();
  const row = table.locator('tr[data-order-no="DMX100003"]');
  const [permit] = await Promise.all([page.waitForEvent('download'), row.getByTestId('decl-permit-download').click()]);
  expect(permit.suggestedFilename()).toBe('permit-DMX100003.pdf');
  const file = (await permit.path())!;
  expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
  expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(
    'EXPORT PERMIT DMX100003 Telephoto lens',
  );
  expect(errors).toEqual([]);
  await context.close();
});
