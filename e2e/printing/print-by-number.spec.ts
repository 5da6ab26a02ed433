/**
 * Console printing (issue 14): print waybill labels by order number through the real print agent
 * (apps/print-agent, started here as a child process on a port of this run) to its "Save to PDF
 * folder" virtual printer, and read the PDFs that arrive. CUPS is kept out of reach (an empty
 * PATH for the agent: no lp, no lpstat) so the agent offers only that printer and never touches
 * the machine's queues. Then the same order again: the repeat-print interception names it,
 * cancelling prints nothing, continuing prints. The print settings (agent port, margins,
 * picking list, printer) are saved on the server and come back after a reload.
 */
import { expect, test, type Page } from '../support/test.ts';
import { MAIN, MAIN_PORT } from '../servers.ts';
import { createOrder, listOrders } from '../support/orders.ts';
import { type FolderAgent, SAVE_TO_FOLDER, startFolderAgent } from '../support/print-agent.ts';
import { api, loginByCookie } from '../support/session.ts';

// Each run its own agent port (the default e2e run: 8190), beside its own console ports.
const AGENT_PORT = Number(process.env.E2E_PRINT_AGENT_PORT ?? MAIN_PORT + 100);

let agent: FolderAgent;

test.beforeAll(async () => {
  agent = await startFolderAgent(AGENT_PORT);
});
test.afterAll(() => agent?.stop());

/** The PDFs in the agent's folder, oldest first, with their page counts (pdfinfo). */
const pdfs = () => agent.pdfs();

async function openSettings(page: Page) {
  await page.getByTestId('print-settings').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('print-agentPort')).toBeVisible();
  return dialog;
}

test('print by order number through the print agent, repeat-print interception, settings kept', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  await page.goto(`${MAIN}/home/printByOrderNumber`);

  // The console looks for the agent where QZ Tray listens (8182): nothing allows this origin
  // there, so it says how to start the agent.
  const missing = page.getByTestId('agent-missing');
  await expect(missing).toBeVisible();
  await expect(missing).toContainText('获取打印服务失败');
  await expect(missing).toContainText('npm run print-agent');

  // Point the console at this run's agent, with a top margin and the picking list on.
  let dialog = await openSettings(page);
  // Another host than this computer's is refused with the reason (the port box keeps its own range).
  await dialog.getByTestId('print-agentHost').fill('192.168.1.5');
  await dialog.getByTestId('print-settings-save').click();
  await expect(dialog).toContainText('只能是 localhost 或 127.0.0.1');
  await dialog.getByTestId('print-agentHost').fill('localhost');
  await dialog.getByTestId('print-agentPort').fill(String(AGENT_PORT));
  await dialog.getByTestId('print-marginTop').fill('3');
  await dialog.getByTestId('print-pickingList').click();
  await dialog.getByTestId('print-settings-save').click();
  await expect(dialog).toBeHidden();
  // A new address is looked up at once.
  await expect(page.getByTestId('agent-ready')).toBeVisible();
  await expect(missing).toBeHidden();

  // No default printer (no CUPS): printing asks for one; choose the folder printer.
  const printer = page.getByTestId('print-printer');
  await printer.click();
  await page.locator('.ant-select-item-option', { hasText: SAVE_TO_FOLDER }).click();
  await expect(printer).toContainText(SAVE_TO_FOLDER);

  // Scan the order number (Enter after it) and one that names no order.
  const numbers = page.getByTestId('print-numbers');
  await numbers.fill(order.orderNo);
  await numbers.press('Enter');
  await numbers.fill('NO-SUCH-ORDER-1');
  await numbers.press('Enter');
  const line = page.getByTestId(`print-line-${order.orderNo}`);
  await expect(line).toContainText('可打印');
  await expect(page.getByTestId('print-line-NO-SUCH-ORDER-1')).toContainText('未找到订单');

  // Print all: the labels (one page) then the picking list arrive in the folder.
  await page.getByTestId('print-all').click();
  await expect(line).toContainText('已打印');
  await expect(line).toContainText(SAVE_TO_FOLDER);
  await expect.poll(() => pdfs().length).toBe(2);
  const [labelsPdf, pickingPdf] = pdfs();
  expect(labelsPdf!.name).toContain(`labelA-${order.orderNo}`);
  expect(labelsPdf!.pages).toBe(1);
  expect(pickingPdf!.name).toContain(`picking-${order.orderNo}`);
  expect(pickingPdf!.pages).toBeGreaterThanOrEqual(1);
  // The server counted one print and named the printer.
  const printed = async () =>
    (await listOrders(request, token, { noType: 'orderNo', numbers: order.orderNo })).list[0] as unknown as {
      status: string;
      printCount: number;
    };
  expect(await printed()).toMatchObject({ status: 'printed', printCount: 1 });
  const detail = await api<{ events: { location: string | null }[] }>(request, 'order/order', { id: order.id }, token);
  expect(JSON.stringify(detail.body.data.events)).toContain(SAVE_TO_FOLDER);

  // Again: the interception names the order and its count; cancel prints nothing.
  await page.getByTestId('print-all').click();
  const repeat = page.getByTestId('repeat-print');
  await expect(repeat).toContainText(`${order.orderNo}：已打印 1 次`);
  await page.getByTestId('repeat-cancel').click();
  await expect(repeat).toBeHidden();
  expect(pdfs()).toHaveLength(2);
  expect((await printed()).printCount).toBe(1);
  // Continue prints it again.
  await page.getByTestId('print-all').click();
  await expect(repeat).toContainText(`${order.orderNo}：已打印 1 次`);
  await page.getByTestId('repeat-continue').click();
  await expect.poll(() => pdfs().length).toBe(4);
  await expect.poll(async () => (await printed()).printCount).toBe(2);

  // The settings were saved for this user: after a reload they come back.
  await page.reload();
  await expect(page.getByTestId('agent-ready')).toBeVisible();
  await expect(page.getByTestId('print-printer')).toContainText(SAVE_TO_FOLDER);
  dialog = await openSettings(page);
  await expect(dialog.getByTestId('print-agentPort')).toHaveValue(String(AGENT_PORT));
  await expect(dialog.getByTestId('print-marginTop')).toHaveValue('3');
  await expect(dialog.getByTestId('print-pickingList')).toBeChecked();
  await expect(dialog.getByTestId('print-repeatIntercept')).toBeChecked();
});

test('refused orders are named with the reason, the rest print; the order detail prints too', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await loginByCookie(context, request, 'demo');
  // Settings saved by the API this time: the agent of this run, its folder printer, no picking list.
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
  const [ok, interceptedBefore, interceptedAfter] = [
    await createOrder(request, token),
    await createOrder(request, token),
    await createOrder(request, token),
  ];
  const intercept = async (orderNo: string) => {
    const r = await api(
      request,
      'order/create/interception',
      { noType: 'orderNo', numbers: orderNo, reason: 'e2e' },
      token,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  await intercept(interceptedBefore.orderNo);
  const before = pdfs().length;

  await page.goto(`${MAIN}/home/printByOrderNumber`);
  await expect(page.getByTestId('agent-ready')).toBeVisible();
  // Pasted together, one per line.
  const numbers = page.getByTestId('print-numbers');
  await numbers.fill([ok.orderNo, interceptedBefore.orderNo, interceptedAfter.orderNo].join('\n'));
  await numbers.press('Enter');
  const line = (o: { orderNo: string }) => page.getByTestId(`print-line-${o.orderNo}`);
  await expect(line(ok)).toContainText('可打印');
  await expect(line(interceptedAfter)).toContainText('可打印');
  await expect(line(interceptedBefore)).toContainText('不能打印');
  await expect(line(interceptedBefore)).toContainText('订单已拦截');
  await expect(page.getByTestId('print-all')).toContainText('(2)');

  // Intercepted after the look-up: the server refuses the download whole, the page names it
  // with the server's reason and prints the other one.
  await intercept(interceptedAfter.orderNo);
  await page.getByTestId('print-all').click();
  await expect(line(ok)).toContainText('已打印');
  await expect(line(interceptedAfter)).toContainText('不能打印');
  await expect.poll(() => pdfs().length).toBe(before + 1);
  expect(pdfs().at(-1)!.pages).toBe(1);
  const count = async (id: number) =>
    (await api<{ printCount: number }>(request, 'order/order', { id }, token)).body.data.printCount;
  expect(await count(interceptedAfter.id)).toBe(0);
  expect(await count(ok.id)).toBe(1);

  // The order detail's button: printed once already, so it asks first.
  await page.goto(`${MAIN}/home/order/info?id=${ok.id}`);
  await page.getByTestId('detail-print').click();
  await expect(page.getByTestId('repeat-print')).toContainText(`${ok.orderNo}：已打印 1 次`);
  await page.getByTestId('repeat-continue').click();
  await expect.poll(() => pdfs().length).toBe(before + 2);
  await expect.poll(() => count(ok.id)).toBe(2);

  // The order list's button prints the selected rows (the list's counts: asks first too).
  await page.goto(`${MAIN}/home/order/list`);
  await page.getByTestId('list-numbers').fill(ok.orderNo);
  await page.getByTestId('list-search').click();
  // The search's answer: the order alone (it was on the unfiltered list too, and a tick given
  // before the answer belongs to the old query, which the search clears).
  await expect(page.getByTestId('order-table').locator('.ant-table-row')).toHaveCount(1);
  const row = page.getByTestId('order-table').locator('.ant-table-row', { hasText: ok.orderNo });
  await expect(row).toHaveCount(1);
  await row.getByRole('checkbox').check();
  await page.getByTestId('list-print').click();
  await expect(page.getByTestId('repeat-print')).toContainText(`${ok.orderNo}：已打印 2 次`);
  await page.getByTestId('repeat-continue').click();
  await expect.poll(() => pdfs().length).toBe(before + 3);
  await expect.poll(() => count(ok.id)).toBe(3);

  // A PDF from this computer prints as it is; anything else is not a file to print.
  await page.goto(`${MAIN}/home/printByOrderNumber`);
  await expect(page.getByTestId('agent-ready')).toBeVisible();
  const picker = page.locator('input[type=file]');
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.locator('.ant-message')).toContainText('请选择要打印的文件');
  const label = pdfs().at(-1)!;
  await picker.setInputFiles({
    name: 'my-label.pdf',
    mimeType: 'application/pdf',
    buffer: agent.read(label.name),
  });
  await expect.poll(() => pdfs().length).toBe(before + 4);
  expect(pdfs().find((f) => f.name.includes('my-label'))?.pages).toBe(1);
});
