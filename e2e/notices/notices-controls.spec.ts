/**
 * Notices (/seeMore), every control (issue 11 findings 1 and 22): paging with the size
 * changer, search, unread only, and Agree. On the SHORT_TTL server, with notices added to
 * its file (the API publishes none).
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { choosePageSize, cloneRows, expectRows, gotoPage, sql, sqlGet } from '../support/tables.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });

type Notice = { id: number; read: boolean; agreed: boolean; mustAgree: boolean };
const table = (page: Page) => page.getByTestId('notices-table');
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const list = async (request: APIRequestContext, token: string, path: string, body: Record<string, unknown>) =>
  (
    await api<{ total: number; list: Notice[] }>(
      request,
      path,
      { offset: 0, limit: 20, order: 'desc', ...body },
      await apiLogin(request, 'demo', SHORT_TTL),
      SHORT_TTL,
    )
  ).body.data;

test.describe('Notices controls', () => {
  test.describe.configure({ timeout: 240_000 });
  let mustAgree = 0;
  test.beforeAll(() => {
    const file = dbFile('short-ttl');
    const [seed] = sqlGet<{ id: number }>(file, 'SELECT min(id) AS id FROM notices');
    cloneRows(file, 'notices', seed!.id, 24, {
      title_zh: "'E2E 公告 ' || :n",
      title_en: "'E2E notice ' || :n",
      must_agree: '0',
    });
    [mustAgree] = cloneRows(file, 'notices', seed!.id, 1, {
      title_zh: "'E2E 须同意公告'",
      title_en: "'E2E notice to agree'",
      must_agree: '1',
    });
    // Unread notices stop ordering (the notices gate): only demo meets these, and only in this test.
    sql(
      file,
      `INSERT INTO notice_reads (notice_id, user_id, read_at, agreed_at)
       SELECT n.id, u.id, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM notices n, users u
       WHERE n.title_en LIKE 'E2E notice%' AND u.name <> 'demo'
         AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.user_id = u.id)`,
    );
  });

  test.afterAll(() => {
    sql(
      dbFile('short-ttl'),
      `INSERT INTO notice_reads (notice_id, user_id, read_at, agreed_at)
       SELECT n.id, u.id, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM notices n, users u
       WHERE n.title_en LIKE 'E2E notice%'
         AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.user_id = u.id)`,
    );
  });

  test('finding 1 / 22: paging, size changer, search, unread only and Agree', async ({ page, context, request }) => {
    const token = await loginByCookie(context, request, 'demo', SHORT_TTL);
    const all = await list(request, token, 'notifications', {});
    expect(all.total).toBeGreaterThan(20);
    await page.goto(`${SHORT_TTL}/home/seeMore`);
    await expect(table(page).locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
    await expectRows(table(page), ids(all.list));
    await gotoPage(table(page), 2);
    await expectRows(table(page), ids((await list(request, token, 'notifications', { offset: 20 })).list));
    await choosePageSize(page, table(page), 10);
    await expectRows(table(page), ids((await list(request, token, 'notifications', { limit: 10 })).list));
    await gotoPage(table(page), 2);
    await expectRows(table(page), ids((await list(request, token, 'notifications', { offset: 10, limit: 10 })).list));

    // Unread only: back to page 1, only unread ones.
    await page.getByTestId('notices-unread').click();
    const unread = await list(request, token, 'notifications', { unread: true, limit: 10 });
    expect(unread.list.every((n) => !n.read)).toBe(true);
    await expectRows(table(page), ids(unread.list));
    await page.getByTestId('notices-unread').click();

    // Search.
    const search = page.getByTestId('notices-search').locator('input');
    await search.fill('须同意');
    await search.press('Enter');
    const found = await list(request, token, 'notification/search', { keyword: '须同意', limit: 10 });
    expect(ids(found.list)).toContain(mustAgree);
    await expectRows(table(page), ids(found.list));

    // Agree: the notice is read and agreed.
    await page.getByTestId(`notice-${mustAgree}`).click();
    await page.getByTestId('notice-agree').click();
    await expect(page.getByTestId('notice-agree')).toBeHidden();
    const after = await list(request, token, 'notification/search', { keyword: '须同意' });
    expect(after.list[0]).toMatchObject({ id: mustAgree, read: true, agreed: true });
  });
});
