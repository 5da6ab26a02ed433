/**
 * JD authorizations as a customer clicks them (issue 16): the seeded app waits to be authorized
 * (and demo2's is not shown); a new app is saved with its secret masked from then on; "Authorize"
 * goes to JD (the fake JD server of the e2e run), the user agrees, JD sends the browser to the
 * server's callback and back to the list, which exchanges the code and shows the token's expiry
 * with its warning (the fake grants 5 days); renewal refreshes it.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { E2E_JD_APP, JD_FAKE_EXPIRES_DAYS, JD_PORT, MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 20_000 });

/** The date as the console shows it (UTC+8). */
const chinaDate = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);

test('JD authorization: save an app, authorize it at JD, back with the token and its expiry, renew, edit, delete', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  const token = await loginByCookie(context, request, 'demo');

  await page.goto(`${MAIN}/home/order/jdAuthorize`);
  const table = page.getByTestId('jd-table');
  const seeded = table.locator('tr[data-jd="DEMOJDAPPKEY0001"]');
  await expect(seeded.getByTestId('jd-status')).toHaveText('未授权');
  await expect(table.locator('tr[data-jd="DEMOJDAPPKEY0002"]')).toHaveCount(0);

  // Save a new app: the secret is never shown again.
  await page.getByTestId('jd-create-button').click();
  const form = page.getByTestId('jd-create');
  await form.getByTestId('jd-appKey').fill(E2E_JD_APP.appKey);
  await form.getByTestId('jd-appSecret').fill(E2E_JD_APP.appSecret);
  await form.getByTestId('jd-customerCode').fill('E2E-CUST');
  await form.getByTestId('jd-deptNo').fill('EBU9999');
  await form.getByTestId('jd-platformName').fill('E2E 京东店');
  await form.getByTestId('jd-submit').click();
  await expect(page).toHaveURL(/\/home\/order\/jdAuthorize$/);
  const row = table.locator(`tr[data-jd="${E2E_JD_APP.appKey}"]`);
  await expect(row.getByTestId('jd-status')).toHaveText('未授权');
  await expect(row).toContainText('e2e-********0001');
  await expect(page.locator('body')).not.toContainText(E2E_JD_APP.appSecret);

  // Authorize: to JD, agree, back through the callback.
  await row.getByTestId('jd-authorize').click();
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${JD_PORT}/oauth2/to_login\\?`));
  await expect(page.getByText(`应用 ${E2E_JD_APP.appKey} 申请授权`)).toBeVisible();
  const agreedAt = Date.now();
  await page.locator('#agree').click();
  await expect(page).toHaveURL(/\/home\/order\/jdAuthorize$/);
  await expect(page.getByText(/京东授权成功，令牌到期时间/)).toBeVisible();
  await expect(row.getByTestId('jd-status')).toHaveText('即将到期');
  await expect(row.getByTestId('jd-expires')).toContainText(chinaDate(agreedAt + JD_FAKE_EXPIRES_DAYS * 86400_000));
  await expect(page.getByTestId('jd-expiry-warning')).toContainText('E2E 京东店');

  const listed = await api<{ list: { appKey: string; authorized: boolean; tokenExpiresAt: string }[] }>(
    request,
    'jdAuthorize/list',
    { keyword: E2E_JD_APP.appKey },
    token,
  );
  const stored = listed.body.data.list[0]!;
  expect(stored.authorized).toBe(true);
  const ms = Date.parse(stored.tokenExpiresAt) - agreedAt;
  expect(Math.abs(ms - JD_FAKE_EXPIRES_DAYS * 86400_000)).toBeLessThan(120_000);

  // Renewal: refreshed at JD, the expiry moves on.
  await row.getByTestId('jd-renew').click();
  await expect(page.getByText(/已续期，新的到期时间/)).toBeVisible();
  await expect(seeded.getByTestId('jd-status')).toHaveText('未授权');

  // Edit: the form loads the saved app (never its secret); a new shop name is saved and listed.
  await row.getByTestId('jd-edit').click();
  await expect(page).toHaveURL(/\/home\/order\/jdAuthorize\/update\?id=\d+$/);
  const edit = page.getByTestId('jd-update');
  await expect(edit.getByTestId('jd-platformName')).toHaveValue('E2E 京东店');
  await expect(edit.getByTestId('jd-appKey')).toHaveValue(E2E_JD_APP.appKey);
  await expect(edit.getByTestId('jd-appSecret')).toHaveValue('');
  await edit.getByTestId('jd-platformName').fill('E2E 京东旗舰店');
  await edit.getByTestId('jd-submit').click();
  await expect(page).toHaveURL(/\/home\/order\/jdAuthorize$/);
  await expect(row).toContainText('E2E 京东旗舰店');
  // The saved secret was kept: the token is still the app's.
  await expect(row.getByTestId('jd-status')).toHaveText('即将到期');

  // Delete, after a confirmation: the row goes, and so does the stored app.
  await row.getByTestId('jd-delete').click();
  await page.getByTestId('jd-delete-ok').click();
  await expect(row).toHaveCount(0);
  const gone = await api<{ list: unknown[] }>(request, 'jdAuthorize/list', { keyword: E2E_JD_APP.appKey }, token);
  expect(gone.body.data.list).toEqual([]);
  expect(errors).toEqual([]);
});
