/**
 * System → Publish announcement (issue 17): an operator writes a notice in both languages,
 * the form refuses it half-filled, asks before publishing, and customers then find it. On the
 * SHORT_TTL server: an unread notice stops ordering (the notices gate), so the main server's
 * specs must not meet it; afterwards every user has read and agreed to it.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { sql } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
const TITLE_EN = `E2E published ${Date.now().toString(36)}`;

test.afterAll(() => {
  sql(
    dbFile('short-ttl'),
    `INSERT INTO notice_reads (notice_id, user_id, read_at, agreed_at)
     SELECT n.id, u.id, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM notices n, users u
     WHERE n.title_en = '${TITLE_EN}'
       AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.user_id = u.id)`,
  );
});

test('an operator publishes a notice in both languages; a customer finds it', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await loginByCookie(context, request, 'operator', SHORT_TTL);
  await page.goto(`${SHORT_TTL}/home/notice/manage`);
  const form = page.getByTestId('notice-manage');
  await expect(form).toBeVisible({ timeout: 60_000 });

  // Half-filled: the form names what is missing and nothing is sent.
  await page.getByTestId('notice-title-zh').fill('E2E 发布的公告');
  await page.getByTestId('notice-publish').click();
  await expect(form.locator('.ant-form-item-explain-error')).toHaveCount(3);

  await page.getByTestId('notice-title-en').fill(TITLE_EN);
  await page.getByTestId('notice-content-zh').fill('仓库将于下周一休息一天。');
  await page.getByTestId('notice-content-en').fill('The warehouse is closed next Monday.');
  await page.getByTestId('notice-publish').click();
  // Asked first; Cancel publishes nothing.
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: /Cancel|取\s*消/ }).click();
  await expect(confirm).toBeHidden();
  const demo = await apiLogin(request, 'demo', SHORT_TTL);
  const search = () =>
    api<{ total: number; list: { title: { en: string } }[] }>(
      request,
      'notification/search',
      { offset: 0, limit: 10, order: 'desc', keyword: TITLE_EN },
      demo,
      SHORT_TTL,
    );
  expect((await search()).body.data.total).toBe(0);

  await page.getByTestId('notice-publish').click();
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: /Publish|发\s*布/ }).click();
  await expect(page.locator('.ant-message')).toContainText(/Announcement published|公告已发布/);
  // The form is cleared for the next one.
  await expect(page.getByTestId('notice-title-en')).toHaveValue('');

  const found = (await search()).body.data;
  expect(found.total).toBe(1);
  expect(found.list[0]!.title.en).toBe(TITLE_EN);
});
