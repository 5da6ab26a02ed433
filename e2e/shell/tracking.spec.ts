import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, apiLogin } from '../support/session.ts';
import { listOrders } from '../support/orders.ts';

// The first load of the frame competes with other work on the shared test machine.
const expect = baseExpect.configure({ timeout: 30_000 });

type Tracked = { waybillNo: string; found: boolean; events: { kind: string }[] };

/** Issue 11 #14: the public page shows the parcel's journey, not the office's edits, and `?no=` searches at once. */
test('public tracking: no internal events, in the API or on the page; ?no= searches on load', async ({
  page,
  request,
}) => {
  const token = await apiLogin(request, 'demo');
  // One that can still change (not intercepted: other specs intercept demo's newest orders).
  const order = (await listOrders(request, token, { status: 'created', limit: 20 })).list.find(
    (o) => o.waybillNo && !o.intercepted,
  );
  expect(order).toBeTruthy();
  const detail = await api<Record<string, any>>(request, 'order/order', { id: order!.id }, token);
  expect(detail.status).toBe(200);
  const d = detail.body.data;
  // An edit writes an internal "updated" event onto the order's trail.
  const edit = await api(
    request,
    'order/order/update',
    {
      id: d.id,
      userRefNo: d.userRefNo,
      remark: `e2e ${Date.now()}`,
      recipient: d.recipient,
      sender: d.sender,
      confirm: ['minorId', 'multiplePricesPerJan', 'crossBorderLimit'],
    },
    token,
  );
  expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  const trail = await api<{ events: { kind: string }[] }>(request, 'order/order', { id: d.id }, token);
  expect(trail.body.data.events.map((e) => e.kind)).toContain('updated');

  const pub = await api<Tracked[]>(request, 'order/tracking', { waybillNos: [order!.waybillNo] });
  expect(pub.status).toBe(200);
  const kinds = pub.body.data[0]!.events.map((e) => e.kind);
  expect(kinds.length).toBeGreaterThan(0);
  expect(kinds).toContain('created');
  for (const internal of ['updated', 'errorFixed', 'abnormalResolved']) expect(kinds).not.toContain(internal);

  let calls = 0;
  page.on('request', (r) => r.url().endsWith('/api/order/tracking') && calls++);
  await page.goto(`${MAIN}/home/tracking?no=${order!.waybillNo}`);
  const card = page.getByTestId(`tracking-${order!.waybillNo}`);
  await expect(card).toBeVisible();
  await expect(card.locator('.ant-timeline-item')).toHaveCount(kinds.length);
  await expect(card).not.toContainText('已修改');
  expect(calls).toBe(1);
});
