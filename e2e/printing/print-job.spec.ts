/**
 * Printing more orders than one label download holds (issue 28 item 25): the console hands them to
 * the server's print job (`order/printLabelA`), polls it (`order/printLabelAResult`) and prints the
 * PDF it made (`file/downloadSteam`) through the real print agent to its folder printer. One order
 * intercepted after the look-up is refused by the job and named on its line; the PDF holds one
 * page per order printed, and the server counted exactly those.
 */
import { labels } from '@console/contract';
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN, MAIN_PORT } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { type FolderAgent, SAVE_TO_FOLDER, startFolderAgent } from '../support/print-agent.ts';
import { api, loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
// This run's port beside its console (the other printing specs take +100 to +104).
const AGENT_PORT = MAIN_PORT + 105;
let agent: FolderAgent;

test.beforeAll(async () => {
  agent = await startFolderAgent(AGENT_PORT);
});
test.afterAll(() => agent?.stop());

test('more orders than one download: the print job prints the printable ones, the refused one is named', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(300_000);
  // demo2: its own print settings and orders, apart from the other printing specs' demo.
  const token = await loginByCookie(context, request, 'demo2');
  const saved = await api(
    request,
    'user/settings/save',
    {
      key: 'print',
      value: { agentPort: AGENT_PORT, printer: SAVE_TO_FOLDER, pickingList: false, repeatIntercept: true },
    },
    token,
  );
  expect(saved.status).toBe(200);
  // One more than a download holds (setup through the API: only the page's requests count).
  const n = labels.LABEL_DOWNLOAD_MAX + 1;
  const orders: { id: number; orderNo: string }[] = [];
  for (let i = 0; i < n; i += 25)
    orders.push(...(await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => createOrder(request, token)))));
  const refused = orders[7]!;

  await page.goto(`${MAIN}/home/printByOrderNumber`);
  await expect(page.getByTestId('agent-ready')).toBeVisible();
  const numbers = page.getByTestId('print-numbers');
  await numbers.fill(orders.map((o) => o.orderNo).join('\n'));
  await numbers.press('Enter');
  await expect(page.getByTestId('print-all')).toContainText(`(${n})`);

  // Intercepted after the look-up: the page still counts it printable, the job refuses it.
  const intercepted = await api(
    request,
    'order/create/interception',
    { noType: 'orderNo', numbers: refused.orderNo, reason: 'e2e' },
    token,
  );
  expect(intercepted.status, JSON.stringify(intercepted.body)).toBe(200);
  const before = agent.pdfs().length;
  await page.getByTestId('print-all').click();
  await expect(page.locator('.ant-message')).toContainText(`已打印 ${n - 1} 个订单`, { timeout: 120_000 });
  const line = (o: { orderNo: string }) => page.getByTestId(`print-line-${o.orderNo}`);
  await expect(line(refused)).toContainText('不能打印');
  await expect(line(refused)).toContainText('拦截');
  await expect(line(orders[0]!)).toContainText('已打印');
  await expect(line(orders.at(-1)!)).toContainText('已打印');
  await expect(page.getByTestId('print-lines').getByText('已打印', { exact: true })).toHaveCount(n - 1);

  // One PDF from the job: a page per printed order.
  await expect.poll(() => agent.pdfs().length).toBe(before + 1);
  const pdf = agent.pdfs().at(-1)!;
  expect(pdf.name).toContain(`labelA-${n}`);
  expect(pdf.pages).toBe(n - 1);

  // The server counted a print for each of those and none for the refused one.
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i += 500) {
    const page = await api<{ list: { orderNo: string; printCount: number }[] }>(
      request,
      'order/search',
      { offset: 0, limit: 500, numbers: orders.slice(i, i + 500).map((o) => o.orderNo) },
      token,
    );
    page.body.data.list.forEach((o) => counts.set(o.orderNo, o.printCount));
  }
  expect(counts.size).toBe(n);
  expect(counts.get(refused.orderNo)).toBe(0);
  expect([...counts.values()].filter((c) => c === 1)).toHaveLength(n - 1);
});
