/**
 * Issue 28, findings 1 and 2: a tab keeps what the user typed until it is saved or closed
 * (closing one with unsaved edits asks first, from the tab menu too), and a tab whose kept
 * state was evicted renders its page again when shown, never a blank body; when the tab
 * limit closes one, the user is told which.
 */
import { expect, test } from '../support/test.ts';
import { aesApi } from '../support/aes.ts';
import { createItem } from '../support/items.ts';
import { createOrder } from '../support/orders.ts';
import { tabPaths } from '../support/session.ts';
import { consoleWithHomeTabOnly, openInConsole as open, tab } from '../support/tabs.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

test.describe('tab state', () => {
  test.describe.configure({ timeout: 120_000 });

  test('edits survive a tab switch on the three edit pages; a dirty tab asks before it closes', async ({
    page,
    context,
    request,
  }) => {
    const token = await consoleWithHomeTabOnly(page, context, request);
    const order = await createOrder(request, token);
    const item = await createItem(request, token);
    const stamp = `TS${Date.now()}`;
    const nomination = await aesApi<{ id: number }>(
      request,
      'export/create',
      {
        nameJa: `輸出 ${stamp} 株式会社`,
        nameEn: `${stamp} Tab Export K.K.`,
        corporateNumber: '1180301018771',
        addressEn: '1 Toyota-cho, Toyota, Aichi',
        tel: '0565-28-2121',
      },
      token,
    );
    expect(nomination.status, JSON.stringify(nomination.body)).toBe(200);

    const edits = [
      { path: `/order/update?id=${order.id}`, loaded: 'r-name', field: 'edit-remark', value: 'typed, not saved' },
      { path: `/item/update?id=${item.id}`, loaded: 'item-jan', field: 'item-nameZh', value: '改过的名字' },
      {
        path: `/exports/update?id=${nomination.body.data.id}`,
        loaded: 'nomination-nameEn',
        field: 'nomination-tel',
        value: '03-0000-0000',
      },
    ];
    for (const e of edits) {
      await open(page, e.path);
      const view = page.locator(`[data-tab-view="${e.path}"]`);
      await expect(view.getByTestId(e.loaded)).not.toHaveValue('');
      const input = view.getByTestId(e.field);
      await input.fill(e.value);
      // Away long enough for the record's query to go stale, then back: what was typed stays.
      await tab(page, '/index').click();
      await page.waitForTimeout(300);
      await tab(page, e.path).click();
      await expect(input).toHaveValue(e.value);
      await expect(tab(page, e.path)).toHaveClass(/is-dirty/);
    }

    // The record's answer comes again (another page saved it, a refetch): still what was typed.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const orderPath = edits[0]!.path;
    await tab(page, orderPath).click();
    await expect(page.locator(`[data-tab-view="${orderPath}"]`).getByTestId('edit-remark')).toHaveValue(
      'typed, not saved',
    );

    // Closing a dirty tab asks; cancelling keeps it and its edits.
    await tab(page, orderPath).getByTestId('tab-close').click();
    const ask = page.locator('.ant-modal-confirm:visible');
    await expect(ask).toContainText('修改订单');
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    expect(await tabPaths(page)).toContain(orderPath);
    await expect(page.locator(`[data-tab-view="${orderPath}"]`).getByTestId('edit-remark')).toHaveValue(
      'typed, not saved',
    );

    // Close others from the tab menu asks too, naming the dirty tabs it would close.
    await tab(page, '/index').click();
    await tab(page, orderPath).click({ button: 'right' });
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '关闭其它' }).click();
    await expect(ask).toContainText('修改商品');
    await expect(ask).toContainText('修改出口抬头');
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    expect(await tabPaths(page)).toHaveLength(4);

    // Confirmed: closed, and opened again it shows the saved record.
    await tab(page, orderPath).getByTestId('tab-close').click();
    await ask.getByRole('button', { name: /^关\s*闭$/ }).click();
    expect(await tabPaths(page)).not.toContain(orderPath);
    await open(page, orderPath);
    const reopened = page.locator(`[data-tab-view="${orderPath}"]`);
    await expect(reopened.getByTestId('r-name')).toHaveValue('张三丰');
    await expect(reopened.getByTestId('edit-remark')).toHaveValue('');
    await expect(tab(page, orderPath)).not.toHaveClass(/is-dirty/);
  });

  test('a create form the user typed into asks before its tab closes; created, it closes at once', async ({
    page,
    context,
    request,
  }) => {
    await consoleWithHomeTabOnly(page, context, request);
    const ask = page.locator('.ant-modal-confirm:visible');
    // Issue 36 #18: each create page, × on its tab after typing into it.
    const creates = [
      { path: '/order/create', field: 'create-orderNo', value: 'DRAFT0001' },
      { path: '/item/create', field: 'item-nameZh', value: '草稿商品' },
      { path: '/exports/create', field: 'nomination-tel', value: '03-0000-0000' },
      { path: '/subscribeTake/create', field: 'pickup-shop-name', value: '草稿店铺' },
      { path: '/selfSendTake/create', field: 'self-send-tracking', value: `SS${Date.now()}` },
      { path: '/order/batchSender', field: 'sender-order-nos', value: 'DM100030' },
    ];
    for (const c of creates) {
      await open(page, c.path);
      const input = page.locator(`[data-tab-view="${c.path}"]`).getByTestId(c.field);
      await expect(tab(page, c.path)).not.toHaveClass(/is-dirty/);
      await input.fill(c.value);
      await expect(tab(page, c.path)).toHaveClass(/is-dirty/);
      await tab(page, c.path).getByTestId('tab-close').click();
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: /取\s*消/ }).click();
      await expect(ask).toHaveCount(0);
      expect(await tabPaths(page)).toContain(c.path);
      await expect(input).toHaveValue(c.value);
    }

    // The upload pages (a chosen sheet is what the user would lose) and the JD form: same question.
    const sheet = { name: 'draft.xlsx', mimeType: XLSX, buffer: Buffer.from('not sent') };
    const uploads = [
      { path: '/order/updateLabelB/create', file: 'labelb-file' },
      { path: '/meituanOrder/create', file: 'meituan-file' },
      { path: '/orderReview/create', file: 'review-file' },
    ];
    for (const u of uploads) {
      await open(page, u.path);
      const view = page.locator(`[data-tab-view="${u.path}"]`);
      await expect(tab(page, u.path)).not.toHaveClass(/is-dirty/);
      await view.getByTestId(u.file).locator('input[type=file]').setInputFiles(sheet);
      await expect(tab(page, u.path)).toHaveClass(/is-dirty/);
      await tab(page, u.path).getByTestId('tab-close').click();
      await ask.getByRole('button', { name: /取\s*消/ }).click();
      await expect(ask).toHaveCount(0);
      await expect(view.getByTestId(u.file)).toContainText('draft.xlsx');
    }
    const jd = '/order/jdAuthorize/create';
    await open(page, jd);
    await expect(tab(page, jd)).not.toHaveClass(/is-dirty/);
    await page.locator(`[data-tab-view="${jd}"]`).getByTestId('jd-platformName').fill('草稿店铺');
    await expect(tab(page, jd)).toHaveClass(/is-dirty/);
    await tab(page, jd).getByTestId('tab-close').click();
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    await expect(page.locator(`[data-tab-view="${jd}"]`).getByTestId('jd-platformName')).toHaveValue('草稿店铺');

    // Created: the form is clean again, and × closes the tab without asking.
    const selfSend = '/selfSendTake/create';
    await tab(page, selfSend).click();
    await page.locator(`[data-tab-view="${selfSend}"]`).getByTestId('self-send-save').click();
    await expect(page.getByTestId('self-send-saved')).toBeVisible();
    await expect(tab(page, selfSend)).not.toHaveClass(/is-dirty/);
    await tab(page, selfSend).getByTestId('tab-close').click();
    await expect(tab(page, selfSend)).toHaveCount(0);
    await expect(ask).toHaveCount(0);

    // Confirmed: the typed order is gone with its tab.
    await tab(page, '/order/create').getByTestId('tab-close').click();
    await ask.getByRole('button', { name: /^关\s*闭$/ }).click();
    expect(await tabPaths(page)).not.toContain('/order/create');
  });

  test('with a dirty tab, leaving the page asks with the browser warning and log off names the loss; clean, it does not', async ({
    page,
    context,
    request,
  }) => {
    await consoleWithHomeTabOnly(page, context, request);
    const ask = page.locator('.ant-modal-confirm:visible');
    await open(page, '/order/create');
    const orderNo = page.locator('[data-tab-view="/order/create"]').getByTestId('create-orderNo');
    // A click first: the browser asks on leaving only a page the user has interacted with.
    await orderNo.click();
    await orderNo.fill('DRAFT0002');
    await expect(tab(page, '/order/create')).toHaveClass(/is-dirty/);

    // Issue 36 #19: log off says the unsaved edits go with it.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '注销' }).click();
    await expect(ask).toContainText('1 个标签有未保存的修改，注销后将丢失。');
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    await expect(ask).toHaveCount(0);

    // Closing (or reloading) the browser's page asks; staying keeps the page and what was typed.
    const warned = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await warned;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    await expect(orderNo).toHaveValue('DRAFT0002');

    // The dirty tab closed: nothing left to lose, the page closes without asking.
    await tab(page, '/order/create').getByTestId('tab-close').click();
    await ask.getByRole('button', { name: /^关\s*闭$/ }).click();
    await expect(tab(page, '/order/create')).toHaveCount(0);
    const closed = page.waitForEvent('close');
    await page.close({ runBeforeUnload: true });
    await closed;
  });

  test('an evicted tab renders its page again; the tab limit says which tab it closed', async ({
    page,
    context,
    request,
  }) => {
    await consoleWithHomeTabOnly(page, context, request);
    await open(page, '/order/create');
    await expect(page.getByTestId('create-orderNo')).toBeVisible();
    const others = [
      '/order/list',
      '/order/batchList',
      '/order/createImport',
      '/order/error',
      '/order/abnormal',
      '/order/idCard',
      '/order/orderBatchSearch',
      '/order/batchSender',
      '/order/updates',
      '/order/postCode',
      '/item/list',
      '/item/noPassItem',
      '/bill',
    ];
    for (const p of others) await open(page, p);
    await tab(page, '/order/create').click();
    await expect(page.locator('[data-tab-view="/order/create"]').getByTestId('create-orderNo')).toBeVisible();

    // Up to the limit of 30 tabs with order details, then one more: the oldest closes and the user is told.
    for (let i = 1; (await tabPaths(page)).length < 30; i++) await open(page, `/order/info?id=${i}`);
    expect(await tabPaths(page)).toHaveLength(30);
    // The least recently used goes (the order list: the create tab was shown again since).
    const oldest = '/order/list';
    expect(await tabPaths(page)).toContain(oldest);
    await open(page, '/order/info?id=99');
    expect(await tabPaths(page)).not.toContain(oldest);
    await expect(page.locator('.ant-message')).toContainText('已自动关闭');
  });
});
