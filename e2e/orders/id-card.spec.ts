/**
 * Promise Letter ID Card (issue 5): front and back images uploaded for a recipient are kept
 * byte for byte and listed masked; a file that is not an image, renamed .jpg, is refused.
 * The images are real JPEG and PNG files drawn on a canvas in the browser.
 */
import { expect, test, type APIRequestContext, type Page } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { createOrder, idCard } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';

type IdCardRow = { id: number; name: string; idCard: string; hasFront: boolean; hasBack: boolean };

/** A small noisy picture (noise keeps it over the server's 1 KB floor) encoded by Chromium. */
async function drawImage(page: Page, type: 'image/jpeg' | 'image/png'): Promise<Buffer> {
  const base64 = await page.evaluate((mime) => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 40;
    const ctx = canvas.getContext('2d')!;
    const img = ctx.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < img.data.length; i++) img.data[i] = i % 4 === 3 ? 255 : Math.floor(Math.random() * 256);
    ctx.putImageData(img, 0, 0);
    return canvas.toDataURL(mime, 0.95).split(',')[1]!;
  }, type);
  return Buffer.from(base64, 'base64');
}

async function image(request: APIRequestContext, token: string, id: number, side: 'front' | 'back') {
  const res = await request.post(`${MAIN}/api/order/idCard/image`, {
    data: { id, side },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return { type: res.headers()['content-type'], body: await res.body() };
}

// antd spaces out a two-character CJK button label ("查 看").
const VIEW = /^查\s?看$/;
const REFUSED = '只接受 jpg, jpeg, png 文件（按内容校验）。';

/** Text renamed photo.jpg, uploaded for a recipient; answers the server's response. */
async function uploadFake(page: Page, number: string) {
  await page.getByLabel('收件人', { exact: true }).fill('李雷');
  await page.getByLabel('身份证号', { exact: true }).fill(number);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/order/idCard/upload'));
  const fake = Buffer.from('%PDF-1.4 not a photo\n'.repeat(200));
  await page.locator('input[type=file]').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: fake });
  return answer;
}

const findCard = async (request: APIRequestContext, token: string, keyword: string) =>
  (await api<{ list: IdCardRow[] }>(request, 'order/idCard', { offset: 0, limit: 5, order: 'desc', keyword }, token))
    .body.data.list;

test.describe('Promise Letter ID Card', () => {
  test('front jpg and back png for a recipient: listed masked, stored as uploaded', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo');
    const number = idCard();
    await page.goto(`${MAIN}/home/order/idCard`);
    const jpg = await drawImage(page, 'image/jpeg');
    const png = await drawImage(page, 'image/png');
    expect([...jpg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(Math.min(jpg.length, png.length)).toBeGreaterThan(1024);

    await page.getByLabel('收件人', { exact: true }).fill('韩梅梅');
    await page.getByLabel('身份证号', { exact: true }).fill(number);
    await page.locator('input[type=file]').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpg });
    await expect(page.locator('.ant-message')).toContainText('已保存');
    const masked = `${number.slice(0, 4)}**********${number.slice(-4)}`;
    const row = page.locator('.ant-table-row', { hasText: masked });
    await expect(row).toContainText('韩**'); // names are masked in the list too
    await expect(row.getByRole('button', { name: VIEW })).toHaveCount(1); // the front only

    // The back side of the same recipient goes onto the same card.
    await page.getByLabel('正面或背面', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '背面' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: png });
    await expect(row.getByRole('button', { name: VIEW })).toHaveCount(2);
    await expect(page.locator('.ant-table-row', { hasText: masked })).toHaveCount(1);

    // What the server keeps: one card, masked in the list, each side byte for byte with its type.
    const [card, ...more] = await findCard(request, token, number);
    expect(more).toEqual([]);
    expect(card).toMatchObject({ name: '韩**', idCard: masked, hasFront: true, hasBack: true });
    const front = await image(request, token, card!.id, 'front');
    expect(front.type).toBe('image/jpeg');
    expect(front.body.equals(jpg)).toBe(true);
    const back = await image(request, token, card!.id, 'back');
    expect(back.type).toBe('image/png');
    expect(back.body.equals(png)).toBe(true);

    // The owner views it in the page.
    await row.getByRole('button', { name: VIEW }).first().click();
    await expect(page.getByRole('dialog').locator('img')).toBeVisible();
  });

  test('issue 11 finding 10: an image for an order named by its waybill number, as the lists show it', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo');
    const order = await createOrder(request, token);
    expect(order.waybillNo).toBeTruthy();
    await page.goto(`${MAIN}/home/order/idCard`);
    const jpg = await drawImage(page, 'image/jpeg');

    // A number nobody has is refused with the reason, and nothing is saved.
    await page.getByTestId('idcard-order-no').fill('NO-SUCH-WAYBILL');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/order/idCard/upload'));
    await page.locator('input[type=file]').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpg });
    expect((await refused).status()).toBe(422);
    await expect(page.getByText('没有使用该单号的订单（订单号、运单号或参考号）。')).toBeVisible();

    await page.getByTestId('idcard-order-no').fill(order.waybillNo!);
    await page.locator('input[type=file]').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpg });
    await expect(page.locator('.ant-message')).toContainText('已保存');
    // The card is the order's: listed under its order number, with the order's recipient.
    const row = page.locator('.ant-table-row', { hasText: order.orderNo });
    await expect(row).toContainText('张**');
    await expect(row.getByRole('button', { name: VIEW })).toHaveCount(1);
    const [card, ...more] = await findCard(request, token, order.orderNo);
    expect(more).toEqual([]);
    expect(card).toMatchObject({ hasFront: true, hasBack: false });
  });

  test('a file that is not an image, renamed .jpg, is refused by its content and nothing is saved', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo');
    const number = idCard();
    await page.goto(`${MAIN}/home/order/idCard`);
    const res = await uploadFake(page, number);
    expect(res.status()).toBe(422);
    expect(((await res.json()) as { data: { file: string[] } }).data.file).toEqual([REFUSED]);
    await expect(page.locator('.ant-table-row', { hasText: '李雷' })).toHaveCount(0);
    expect(await findCard(request, token, number)).toEqual([]);
    await expect(page.getByText('已保存')).toHaveCount(0);
  });

  test('bulk import: a refused upload lists its problems and offers a workbook of the failed rows', async ({
    page,
    context,
    request,
  }) => {
    await loginByCookie(context, request, 'demo');
    const good = idCard();
    const wrongCheck = good.slice(0, 17) + (good.endsWith('X') ? '0' : 'X');
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('id-cards');
    sheet.addRow(['订单号', '运单号', '*收件人姓名', '*身份证号']);
    sheet.addRow(['', '', '张伟', good]); // row 2: fine, but nothing is imported
    sheet.addRow(['', '', '王芳', wrongCheck]); // row 3: wrong check character
    sheet.addRow(['NO-SUCH-ORDER', '', '李娜', good]); // row 4: not this customer's order
    const upload = Buffer.from(await wb.xlsx.writeBuffer());

    await page.goto(`${MAIN}/home/order/idCard`);
    await page.getByTestId('id-card-bulk').click();
    const dialog = page.getByRole('dialog');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/order/idCard/import'));
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'cards.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: upload,
    });
    expect((await answer).status()).toBe(422);
    await expect(dialog.getByText('身份证号校验位错误。')).toBeVisible();
    await expect(dialog.getByText('该客户没有订单 NO-SUCH-ORDER。')).toBeVisible();

    const download = page.waitForEvent('download');
    await dialog.getByTestId('id-card-bulk-errors').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('cards-errors.xlsx');
    const errors = new ExcelJS.Workbook();
    await errors.xlsx.readFile(await file.path());
    const ws = errors.worksheets[0]!;
    const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
    expect(ws.actualRowCount).toBe(3); // the header and the two failed rows
    expect(values(1)).toEqual(['订单号', '运单号', '*收件人姓名', '*身份证号', '错误', '原表行号']);
    expect(values(2)).toEqual(['', '', '王芳', wrongCheck, '[D] 身份证号校验位错误。', 3]);
    expect(values(3)).toEqual(['NO-SUCH-ORDER', '', '李娜', good, '[A] 该客户没有订单 NO-SUCH-ORDER。', 4]);
  });

  test('a refused file: the page shows the reason', async ({ page, context, request }) => {
    await loginByCookie(context, request, 'demo');
    await page.goto(`${MAIN}/home/order/idCard`);
    expect((await uploadFake(page, idCard())).status()).toBe(422);
    await expect(page.getByText(REFUSED)).toBeVisible({ timeout: 5_000 });
  });
});
