/**
 * Item import (issue 12, bulk): from the Item List, download the template, fill it (one row with
 * a wrong JAN check digit), upload it, see the failed row and its reason, import the valid rows
 * and find them in the list as pending.
 */
import ExcelJS from 'exceljs';
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { listItems, uniqueJan, wrongDigit } from '../support/items.ts';
import { loginByCookie } from '../support/session.ts';

test('import items from the template: the bad row is shown and left out, the valid ones land pending', async ({
  page,
  context,
  request,
}) => {
  page.setDefaultTimeout(30_000);
  const token = await loginByCookie(context, request, 'demo');
  const group = `imp${Date.now() % 1e7}`;
  await page.goto(`${MAIN}/home/item/list`);
  await page.getByTestId('list-import').click();
  const dialog = page.getByTestId('item-import');
  await expect(dialog).toBeVisible();

  const [dl] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('import-template').click()]);
  expect(dl.suggestedFilename()).toMatch(/\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await dl.path());
  const sheet = wb.getWorksheet('items')!;
  const headers = (sheet.getRow(1).values as string[]).slice(1);
  const put = (row: number, values: Record<string, string | number>) => {
    for (const [en, v] of Object.entries(values)) {
      const col = headers.findIndex((h) => h.endsWith(`/ ${en}`));
      expect(col, en).toBeGreaterThanOrEqual(0);
      sheet.getRow(row).getCell(col + 1).value = v;
    }
  };
  const jans = [uniqueJan(), uniqueJan(), uniqueJan()];
  const bad = wrongDigit(jans[1]!);
  const rows = [jans[0]!, bad, jans[2]!].map((jan, i) => ({
    JAN: jan,
    'Chinese name': `导入商品${i}`,
    Category: '2',
    Group: group,
    'Net weight (g)': 100 + i,
    'Clearance price (CNY)': '30.5',
    'Declaration price (JPY)': '500',
    Origin: 'JP',
  }));
  rows.forEach((r, i) => put(i + 2, r));
  const buffer = Buffer.from(await wb.xlsx.writeBuffer());

  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'items.xlsx', mimeType: 'application/octet-stream', buffer });
  await expect(dialog.getByTestId('import-summary')).toContainText('3');
  await expect(dialog.getByTestId('import-summary')).toContainText(/2 行有效，1 行有错误|2 valid, 1 with errors/);
  const errors = dialog.getByTestId('import-errors-table');
  await expect(errors).toContainText('3');
  await expect(errors).toContainText('JAN');
  await expect(errors).toContainText('校验位');
  // The error workbook holds that row.
  const [errs] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('import-errors').click()]);
  const eb = new ExcelJS.Workbook();
  await eb.xlsx.readFile(await errs.path());
  const failed: string[] = [];
  eb.worksheets[0]!.eachRow((r, n) => n > 1 && failed.push(String((r.values as unknown[])[2])));
  expect(failed).toEqual([bad]);

  await dialog.getByTestId('import-confirm').click();
  await expect(dialog.getByTestId('import-done')).toBeVisible();
  await expect(dialog.getByTestId('import-done')).toContainText('2');

  const listed = await listItems(request, token, { group, limit: 10 });
  expect(listed.total).toBe(2);
  expect(listed.list.map((i) => i.jan).sort()).toEqual([jans[0], jans[2]].sort());
  expect(listed.list.every((i) => i.status === 'pending')).toBe(true);

  // And on the page: the list, filtered by the group, shows both.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByTestId('list-group').fill(group);
  await page.getByTestId('list-search').click();
  const table = page.getByTestId('item-table');
  for (const jan of [jans[0]!, jans[2]!]) await expect(table).toContainText(jan);
  await expect(table).not.toContainText(bad);
});
