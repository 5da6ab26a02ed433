/**
 * Issue 36 #23 (and issue 28, finding 14): at 1440 px, a list's key columns showed under the fixed
 * 操作 column (商品列表 状态, bills 付款时间), or the actions were off to the right of a list whose
 * 操作 column was not fixed (batch list). Each key column is checked where a user looks at it: the
 * point at the centre of its header, unscrolled, is the header itself, not the fixed column over it
 * nor the space past the table's edge.
 */
import { expect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';

/** Whether the header titled `title` of the page's table shows at its centre, the table unscrolled. */
async function showsUncovered(page: Page, path: string, title: string) {
  const th = page
    .locator(`[data-tab-view="${path}"] .ant-table-thead th`)
    .filter({ hasText: new RegExp(`^${title}$`) })
    .first();
  await expect(th).toBeAttached();
  return th.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && el.contains(hit);
  });
}

const lists = [
  { path: '/order/list', keys: ['订单号', '运单号', '状态'] },
  { path: '/order/error', keys: ['订单号', '运单号', '错误原因', '操作'] },
  { path: '/order/batchList', keys: ['批次号', '状态', '操作'] },
  { path: '/item/list', keys: ['JAN', '中文名称', '状态', '操作'] },
  { path: '/bill', keys: ['账期', '状态', '合计（人民币）', '出账时间', '付款时间', '操作'] },
];

test('at 1440 px the key columns of the lists show, none under the fixed 操作 column', async ({
  page,
  context,
  request,
}) => {
  expect(page.viewportSize()).toEqual({ width: 1440, height: 900 });
  await loginByCookie(context, request, 'operator');
  const hidden: string[] = [];
  for (const l of lists) {
    await page.goto(`${MAIN}/home${l.path}`);
    await expect(page.locator(`[data-tab-view="${l.path}"] .ant-table-tbody tr.ant-table-row`).first()).toBeVisible();
    for (const k of l.keys) if (!(await showsUncovered(page, l.path, k))) hidden.push(`${l.path} ${k}`);
  }
  expect(hidden).toEqual([]);
});
