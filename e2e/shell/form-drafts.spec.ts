/**
 * Issue 36 #19: a session that ends while forms are dirty keeps their values as drafts (per user,
 * per page), and the same user, logged in again, is offered them back on opening the page; another
 * user on the same browser never is.
 */
import { expect, test, type Page } from '../support/test.ts';
import { PASSWORD } from '../servers.ts';
import { TOKEN_COOKIE, api, apiLogin, cookie } from '../support/session.ts';
import { consoleWithHomeTabOnly, openInConsole as open, tab } from '../support/tabs.ts';

const ORDER = '/order/create';
const ITEM = '/item/create';
const view = (page: Page, path: string) => page.locator(`[data-tab-view="${path}"]`);
/**
 * A call from the order page, to meet the ended session. A background call (the badges) may have met
 * it first and taken the page away or covered it with the 430 dialog: then that is the same end.
 */
const callFromOrderPage = (page: Page) =>
  view(page, ORDER)
    .getByRole('button', { name: /^生\s*成$/ })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
const offer = (page: Page) => page.locator('.ant-modal-confirm:visible').filter({ hasText: '恢复未保存的修改？' });

/** The login form, reached by the session's end: the user lands back where the console sent them from. */
async function loginAgain(page: Page, name: string, landing: string) {
  await expect(page).toHaveURL(/\/home\/login\?redirect=%2Forder%2Fcreate$/);
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(tab(page, landing)).toHaveClass(/is-active/);
}

/** Types into the order and item create pages (the item's tab left hidden behind the order's). */
async function typeDrafts(page: Page, recipient: string, itemName: string) {
  await open(page, ITEM);
  await view(page, ITEM).getByTestId('item-nameZh').fill(itemName);
  await open(page, ORDER);
  await view(page, ORDER).getByTestId('r-name').fill(recipient);
  await view(page, ORDER).getByTestId('item-name-0').fill('草稿商品名');
  await expect(tab(page, ORDER)).toHaveClass(/is-dirty/);
  await expect(tab(page, ITEM)).toHaveClass(/is-dirty/);
}

test.describe('drafts kept when the session ends', () => {
  test.describe.configure({ timeout: 120_000 });

  test('refresh refused: the same user is offered the drafts back and they fill the forms; the tab stays dirty', async ({
    page,
    context,
    request,
  }) => {
    const token = await consoleWithHomeTabOnly(page, context, request, 'demo');
    await typeDrafts(page, '草稿收件人', '草稿商品一');

    // The session is logged out server-side: the next call's 401 cannot be refreshed.
    expect((await api(request, 'logout', {}, token)).status).toBe(200);
    await callFromOrderPage(page);
    await loginAgain(page, 'demo', ORDER);

    await expect(offer(page)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('draft-offer.png') });
    await offer(page)
      .getByRole('button', { name: /恢\s*复/ })
      .click();
    await expect(offer(page)).toHaveCount(0);
    await expect(view(page, ORDER).getByTestId('r-name')).toHaveValue('草稿收件人');
    await expect(view(page, ORDER).getByTestId('item-name-0')).toHaveValue('草稿商品名');
    await expect(tab(page, ORDER)).toHaveClass(/is-dirty/);

    // The hidden tab's form was kept too: offered when its page opens.
    await open(page, ITEM);
    await expect(offer(page)).toBeVisible();
    await offer(page)
      .getByRole('button', { name: /恢\s*复/ })
      .click();
    await expect(view(page, ITEM).getByTestId('item-nameZh')).toHaveValue('草稿商品一');
    await expect(tab(page, ITEM)).toHaveClass(/is-dirty/);

    // Restored, the draft is no longer kept: a reload (the forms made clean first) offers nothing.
    const kept = await page.evaluate(() =>
      Object.keys(localStorage).filter((k) => k.endsWith('-formDrafts') && localStorage.getItem(k) !== '[]'),
    );
    expect(kept).toEqual([]);
  });

  test('session ended by an operator (430): another user on this browser is not offered the drafts; their owner is, and may discard them', async ({
    page,
    context,
    request,
  }) => {
    await consoleWithHomeTabOnly(page, context, request, 'demo');
    await typeDrafts(page, '别人不可见', '草稿商品二');

    const operator = await apiLogin(request, 'operator');
    expect((await api(request, 'session/end', { userName: 'demo' }, operator)).status).toBe(200);
    await callFromOrderPage(page);
    const ended = page.locator('.ant-modal-confirm-warning');
    await expect(ended).toContainText('登录状态已失效');
    // Its OK reloads the page: the kept drafts leave nothing for the browser's leave warning to ask about.
    await ended.locator('.ant-btn-primary').click();

    // demo2 logs in on the same browser and opens the same page: the form is demo2's own, empty.
    await loginAgain(page, 'demo2', ORDER);
    await expect(view(page, ORDER).getByTestId('create-orderNo')).not.toHaveValue('');
    await expect(view(page, ORDER).getByTestId('r-name')).toHaveValue('');
    await expect(offer(page)).toHaveCount(0);
    await open(page, ITEM);
    await expect(view(page, ITEM).getByTestId('item-nameZh')).toBeVisible();
    await expect(offer(page)).toHaveCount(0);

    // demo2 leaves; demo logs in again: demo's drafts are there still, and discarding drops them.
    const demo2 = (await cookie(context, TOKEN_COOKIE))!.value;
    expect((await api(request, 'logout', {}, demo2)).status).toBe(200);
    await open(page, ORDER);
    await callFromOrderPage(page);
    await loginAgain(page, 'demo', ORDER);
    await expect(offer(page)).toBeVisible();
    await offer(page)
      .getByRole('button', { name: /放\s*弃/ })
      .click();
    await expect(offer(page)).toHaveCount(0);
    await expect(view(page, ORDER).getByTestId('r-name')).toHaveValue('');
    await expect(tab(page, ORDER)).not.toHaveClass(/is-dirty/);
    await page.reload();
    await expect(view(page, ORDER).getByTestId('create-orderNo')).not.toHaveValue('');
    await expect(offer(page)).toHaveCount(0);
  });
});
