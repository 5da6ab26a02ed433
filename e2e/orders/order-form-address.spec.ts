/**
 * Single create and update, the recipient's address (issue 11 findings 8 and 9): a pasted
 * address with its labels ("收货人: 李雷，手机 …") gives the name without them, a name with
 * leftovers is shown as doubtful, and province / city / district are one searchable cascader
 * over the server's divisions, filled by the resolver and used with the keyboard.
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder, idCard, listOrders, unique } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 20_000 });

type Detail = { recipient: { name: string; phone: string; province: string; city: string; district: string } };
const detail = async (request: APIRequestContext, token: string, id: number) =>
  (await api<Detail>(request, 'order/order', { id }, token)).body.data.recipient;

const division = (page: Page) => page.getByTestId('r-division');

test.describe('Order form: address', () => {
  test.describe.configure({ timeout: 120_000 });

  test('finding 8: a labelled paste gives a clean name; leftovers are doubtful; the clean one is saved', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo');
    await page.goto(`${MAIN}/home/order/create`);

    // A name with leftovers is not taken as certain: the user is told what to check.
    await page.getByTestId('paste-address').fill('李雷 备注 13912345678 浙江省杭州市西湖区文三路100号');
    await page.getByTestId('resolve-address').click();
    await expect(page.getByTestId('address-doubt')).toContainText('姓名中混有其他内容');

    await page.getByTestId('paste-address').fill('收货人: 李雷，手机 13912345678，地址：浙江省杭州市西湖区文三路100号');
    await page.getByTestId('resolve-address').click();
    await expect(page.getByTestId('r-name')).toHaveValue('李雷');
    await expect(page.getByTestId('r-phone')).toHaveValue('13912345678');
    await expect(division(page)).toContainText('浙江省 / 杭州市 / 西湖区');
    await expect(page.getByTestId('r-address')).toHaveValue('文三路100号');
    await expect(page.getByTestId('address-doubt')).toHaveCount(0);

    await page.getByTestId('r-idCard').fill(idCard());
    const orderNo = unique('LBL');
    await page.getByTestId('create-orderNo').fill(orderNo);
    await page.getByTestId('item-name-0').fill('洗面奶');
    await page.getByTestId('item-price-0').fill('1200');
    await page.getByTestId('create-submit').click();
    await expect(page.locator('.ant-notification')).toContainText(`订单已创建：${orderNo}`);

    const [row] = (await listOrders(request, token, { noType: 'orderNo', numbers: orderNo })).list;
    expect(row, orderNo).toBeTruthy();
    expect(await detail(request, token, row!.id)).toMatchObject({
      name: '李雷',
      phone: '13912345678',
      province: '浙江省',
      city: '杭州市',
      district: '西湖区',
    });
  });

  test('finding 9: the cascader shows the saved division, searches every district and is used by keyboard', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo');
    const order = await createOrder(request, token);
    await page.goto(`${MAIN}/home/order/update?id=${order.id}`);
    await expect(division(page)).toContainText('浙江省 / 杭州市 / 西湖区');

    // Cleared, the form refuses to save and says what is missing.
    await division(page).hover();
    await division(page).locator('.ant-select-clear').click();
    await page.getByTestId('edit-save').click();
    const missing = page.locator('.ant-form-item-explain-error:visible', { hasText: '请选择省、市、区' });
    await expect(missing).toHaveCount(1);

    // Typing searches across every province; arrows and Enter choose.
    await division(page).click();
    await page.keyboard.type('南山区');
    const options = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item');
    await expect(options.filter({ hasText: '深圳市' })).toHaveCount(1);
    const active = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item-active');
    for (let i = 0; i < 5 && !(await active.allTextContents()).join().includes('深圳市'); i++)
      await page.keyboard.press('ArrowDown');
    await expect(active).toContainText('广东省 / 深圳市 / 南山区');
    await page.keyboard.press('Enter');
    await expect(division(page)).toContainText('广东省 / 深圳市 / 南山区');
    await expect(missing).toHaveCount(0);

    await page.getByTestId('edit-save').click();
    await expect(page.locator('.ant-message')).toContainText('已保存');
    expect(await detail(request, token, order.id)).toMatchObject({
      province: '广东省',
      city: '深圳市',
      district: '南山区',
    });
  });
});
