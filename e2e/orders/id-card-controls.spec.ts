/**
 * Promise Letter ID Card, every control (issue 11 findings 1 and 22): a successful bulk
 * import, paging with the size changer, search, upload by order, and the template.
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { createOrder, idCard } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';
import { choosePageSize, expectRows, gotoPage } from '../support/tables.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });

type Card = { id: number; orderNo: string | null; name: string; hasFront: boolean };
const table = (page: Page) => page.getByTestId('idcard-table');
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const cards = async (request: APIRequestContext, token: string, body: Record<string, unknown> = {}) =>
  (
    await api<{ total: number; list: Card[] }>(
      request,
      'order/idCard',
      { offset: 0, limit: 20, order: 'desc', ...body },
      token,
    )
  ).body.data;

/** A small noisy JPEG drawn by Chromium (noise keeps it over the server's 1 KB floor). */
async function jpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 40;
    const ctx = canvas.getContext('2d')!;
    const img = ctx.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < img.data.length; i++) img.data[i] = i % 4 === 3 ? 255 : Math.floor(Math.random() * 256);
    ctx.putImageData(img, 0, 0);
    return canvas.toDataURL('image/jpeg', 0.95).split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}

test.describe('ID Card controls', () => {
  test.describe.configure({ timeout: 240_000 });

  test('finding 1 / 22: bulk import, paging, size changer, search, upload by order and template', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo');
    await page.goto(`${MAIN}/home/order/idCard`);
    await expect(page.getByTestId('idcard-table')).toBeVisible({ timeout: 60_000 });

    // A successful bulk import of 12 recipients.
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('id-cards');
    sheet.addRow(['订单号', '运单号', '*收件人姓名', '*身份证号']);
    // New numbers each run: a known recipient and number is updated, not added.
    const serial = Date.now() % 900_000;
    for (let i = 0; i < 12; i++) sheet.addRow(['', '', '赵敏', idCard(serial + i)]);
    const before = (await cards(request, token)).total;
    await page.getByTestId('id-card-bulk').click();
    const dialog = page.getByRole('dialog');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/order/idCard/import'));
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'cards.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
    expect((await answer).status()).toBe(200);
    await expect(dialog.locator('.ant-alert-success')).toBeVisible();
    await page.keyboard.press('Escape');
    expect((await cards(request, token)).total).toBe(before + 12);

    // Paging with 10 a page.
    const first = await cards(request, token, { limit: 10 });
    expect(first.total).toBeGreaterThan(10);
    await choosePageSize(page, table(page), 10);
    await expectRows(table(page), ids(first.list));
    await gotoPage(table(page), 2);
    await expectRows(table(page), ids((await cards(request, token, { offset: 10, limit: 10 })).list));

    // Upload by order, named by its order number (issue 11 #10): the order's recipient gets a front image.
    const order = await createOrder(request, token);
    await page.getByTestId('idcard-order-no').fill(order.orderNo);
    await page.getByLabel('收件人', { exact: true }).fill('张三丰');
    await page.getByLabel('身份证号', { exact: true }).fill(idCard(9100));
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/order/idCard/upload'));
    await page
      .locator('input[type=file][accept=".jpg,.jpeg,.png"]')
      .setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: await jpeg(page) });
    expect((await uploaded).status()).toBe(200);

    // Search by its order number: that card, with its front.
    const search = page.getByTestId('idcard-search').locator('input');
    await search.fill(order.orderNo);
    await search.press('Enter');
    const found = await cards(request, token, { keyword: order.orderNo, limit: 10 });
    expect(found.list[0]).toMatchObject({ orderNo: order.orderNo, hasFront: true });
    await expectRows(table(page), ids(found.list));

    // The template.
    const [template] = await Promise.all([page.waitForEvent('download'), page.getByTestId('idcard-template').click()]);
    const twb = new ExcelJS.Workbook();
    await twb.xlsx.readFile(await template.path());
    expect((twb.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toContain('*身份证号 / ID number');
  });
});
