/** Orders helpers shared by the specs under e2e/orders: data through the API, table cells by column title. */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { api } from './session.ts';

export type OrderRow = {
  id: number;
  orderNo: string;
  waybillNo: string | null;
  channel: string;
  status: string;
  customerCode: string;
  recipientName: string;
  recipientPhone: string;
  intercepted: boolean;
  abnormalReason: string | null;
};
export type Created = { id: number; orderNo: string; waybillNo: string | null };

const run = Date.now().toString(36).toUpperCase();
let seq = 0;
/** A number no other run or test uses. */
export const unique = (prefix: string) => `${prefix}${run}${++seq}`;

/** A valid mainland ID number (region 330106, an adult's birth date) with its MOD 11-2 check character. */
export function idCard(serial = Math.floor(Math.random() * 1e6)) {
  const first17 = `33010619${70 + (serial % 30)}0101${String(serial % 1000).padStart(3, '0')}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, d, i) => s + Number(d) * weights[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}

/** One order of the caller (or of `customerId` for agents and operators), through the API. */
export async function createOrder(
  request: APIRequestContext,
  token: string,
  opts: { customerId?: number; phone?: string; channel?: string; base?: string } = {},
): Promise<Created> {
  const res = await api<Created>(
    request,
    'order/createImport',
    {
      customerId: opts.customerId,
      channel: opts.channel ?? 'JP',
      orderNo: unique('E2E'),
      recipient: {
        name: '张三丰',
        idCard: idCard(),
        phone: opts.phone ?? '13812345678',
        province: '浙江省',
        city: '杭州市',
        district: '西湖区',
        address: '文三路100号',
      },
      sender: { name: 'DEMO Trading' },
      items: [{ name: '眼药水', quantity: 1, unitPrice: '1000' }],
    },
    token,
    opts.base,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A page of the order list as the API answers it, newest first like the console's default. */
export async function listOrders(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const res = await api<{ total: number; exact: boolean; list: OrderRow[] }>(
    request,
    'order/orderList',
    { offset: 0, limit: 20, order: 'desc', sort: 'createdAt', ...body },
    token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The cells of one column of an antd table, found by the column's title (selection column included). */
export async function column(table: Locator, title: string): Promise<Locator> {
  const headers = table.locator('thead th');
  const titles = await headers.allInnerTexts();
  const index = titles.findIndex((t) => t.trim() === title);
  expect(index, `column ${title} in ${titles.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return table.locator('tbody tr.ant-table-row').locator(`td:nth-child(${index + 1})`);
}

/**
 * The figure of an antd table's pagination total ("共 12 条" → "12"; the test id may sit on an
 * inner element of the wrapper).
 */
export const totalText = (table: Locator) =>
  table
    .locator('xpath=ancestor-or-self::div[contains(concat(" ", @class, " "), " ant-table-wrapper ")]')
    .locator('.ant-pagination-total-text [data-testid="total-count"]');

/** Opens an antd Select and clicks one option by its exact text. */
export async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${option}$`) })
    .click();
}
