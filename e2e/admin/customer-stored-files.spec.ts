/**
 * A customer's stored files against its quota on the admin's customer page (issue 36, item 5): an
 * operator finds a new customer at "0 B / 10 GB", an ID card image is uploaded for it, and the list
 * and the customer's dialog then show what it keeps.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

/** A valid 18-digit ID number (GB 11643 check character). */
function idNumber(seq: number) {
  const body = `11010519900101${String(seq % 1000).padStart(3, '0')}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((n, d, i) => n + Number(d) * weights[i]!, 0);
  return body + '10X98765432'[sum % 11]!;
}

test('customers: the list and a customer’s dialog show its stored files against the quota', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36).toUpperCase();
  const code = `E2EFILES-${suffix}`;
  const token = await apiLogin(request, 'operator');
  const made = await api<{ id: number }>(request, 'admin/customer/create', { code, name: `Files ${suffix}` }, token);
  expect(made.status).toBe(200);

  const context = await browser.newContext();
  await loginByCookie(context, request, 'operator');
  const page = await context.newPage();
  await page.goto(`${MAIN}/home/system/customers`);
  const search = async () => {
    await page.getByLabel('关键字').fill(code);
    await page.getByRole('button', { name: /查\s*询/ }).click();
  };
  await search();
  const stored = page.getByTestId(`customer-stored-${code}`);
  await expect(stored).toHaveText('0 B / 10 GB');

  // 8 KB of ID card image, uploaded for the customer by the operator.
  const image = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(8192 - 4, 7)]);
  const up = await request.post(`${MAIN}/api/order/idCard/upload`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      side: 'front',
      customerId: String(made.body.data.id),
      name: 'Files Test',
      idCard: idNumber(Date.now()),
      file: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: image },
    },
  });
  expect(up.status(), await up.text()).toBe(200);

  await search();
  await expect(stored).toHaveText('8 KB / 10 GB');
  await page.getByTestId(`customer-edit-${code}`).click();
  const dialog = page.getByTestId('customer-form');
  await expect(dialog.getByTestId(`customer-stored-${code}`)).toHaveText('8 KB / 10 GB');
  await expect(dialog).toContainText('已存文件');
  await context.close();
});
