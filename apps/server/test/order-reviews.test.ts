import { eanCheckDigit, orderReviews as C } from '@console/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from './aes-client.ts';
import { baseRow, fill, idCard, type RowValues } from './batches/helpers.ts';
import { createHarness, type Harness, multipart } from './harness.ts';
import { aes, aesBlob, outsider } from './items/helpers.ts';

/**
 * Order review (issue 12): upload → findings per catalogue case and a price off the declared
 * one → an operator completes with remarks → the customer's workbook holds the findings;
 * delete only pending (once, however many race); the tenant matrix; AES on every call.
 */
let h: Harness;
let demo: string;
let demo2: string;
let agent: string;
let operator: string;
let other: { customerId: number; token: string };
let demoCustomerId: number;

/** A seeded item of demo's catalogue (seed/items.ts): 1, 2, 5 approved (58.00, 218.00 CNY), 3 pending, 4 failed. */
const demoJan = (i: number) => {
  const d = `4910000000${String(i).padStart(2, '0')}`;
  return d + eanCheckDigit(d);
};
const unknownJan = (() => {
  const d = '499999000001';
  return d + eanCheckDigit(d);
})();

const blob = (path: string, body: unknown, token: string, lang = 'en') => aesBlob(h, path, body, token, lang);

/**
 * `orderReview/create` as the console sends it (the fields sealed as data/iv, the file plain),
 * then, as the console does, the review read from the list until its parse on the job queue ended.
 */
async function submit(token: string, file: Buffer | null, fields: Record<string, unknown> = {}, lang = 'en') {
  const r = await upload(token, file, fields, lang);
  if (r.status !== 200) return r;
  expect(['queued', 'parsing']).toContain(r.data.parseState);
  return { ...r, data: await parsed(token, r.data.reviewNo, lang) };
}

/** The review by its number, once its parse is done or failed. */
async function parsed(token: string, reviewNo: string, lang = 'en'): Promise<C.OrderReviewRow> {
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const list = await aes(h, 'orderReviews', { reviewNo }, token, lang);
    const row = list.data.list[0] as C.OrderReviewRow;
    if (row.parseState === 'done' || row.parseState === 'failed') return row;
  }
  throw new Error(`review ${reviewNo} never parsed`);
}

async function upload(token: string, file: Buffer | null, fields: Record<string, unknown> = {}, lang = 'en') {
  const m = multipart(sealRequest(token, fields), file ? { name: 'review.xlsx', data: file } : undefined);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/orderReview/create',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, aes: '1', 'accept-language': lang },
    payload: m.payload,
  });
  const body = res.json();
  return {
    status: res.statusCode,
    body,
    data: res.statusCode === 200 ? (openResponse(token, body) as any) : body.data,
  };
}

let template: Buffer;
const row = (i: number, extra: RowValues) => baseRow(i, { channel: 'JP', currency: 'CNY', quantity: 1, ...extra });

async function sheet(rows: RowValues[]) {
  return fill(template, rows);
}

beforeAll(async () => {
  h = await createHarness();
  [demo, demo2, agent, operator] = await Promise.all(['demo', 'demo2', 'agent', 'operator'].map((n) => h.login(n)));
  other = await outsider(h, 'reviewoutsider');
  demoCustomerId = (
    await h.db.selectFrom('users').select('customer_id').where('name', '=', 'demo').executeTakeFirstOrThrow()
  ).customer_id!;
  const t = await blob('orderReview/downloadTemplateExcel', {}, demo);
  expect(t.status).toBe(200);
  expect(String(t.headers['content-type'])).toContain('spreadsheetml');
  template = t.bytes;
});

describe('workflow', () => {
  let review: C.OrderReviewRow;

  it('upload: every catalogue case and a price off the declared one are found', async () => {
    const file = await sheet([
      row(1, { orderNo: 'RVT-OK', jan: demoJan(1), unitPrice: 58 }),
      row(2, { orderNo: 'RVT-PRICE', jan: demoJan(2), unitPrice: 250 }),
      row(3, { orderNo: 'RVT-PENDING', jan: demoJan(3), unitPrice: 109 }),
      row(4, { orderNo: 'RVT-FAILED', jan: demoJan(4), unitPrice: 32 }),
      row(5, { orderNo: 'RVT-UNKNOWN', jan: unknownJan, unitPrice: 45 }),
      // Refused by the order template's rules: a row error, not a reviewed order.
      row(6, { orderNo: 'RVT-BAD', jan: demoJan(1), unitPrice: 58, recipientName: null }),
    ]);
    const r = await submit(demo, file);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    review = r.data;
    expect(review).toMatchObject({ status: 0, orderCount: 5, itemCount: 5, flaggedOrders: 4, rowErrorCount: 1 });
    expect(review.customerId).toBe(demoCustomerId);

    const items = await aes(h, 'orderReview/order/items', { id: review.id, limit: 100 }, demo);
    expect(items.status).toBe(200);
    const list = items.data.list as C.ReviewItemRow[];
    expect(list).toHaveLength(5);
    const by = new Map(list.map((i) => [i.orderNo, i]));
    expect(by.get('RVT-OK')).toMatchObject({ catalogue: 'approved', clearancePrice: '58.00', unitPrice: '58.00' });
    expect(by.get('RVT-OK')!.findings).toEqual([]);
    expect(by.get('RVT-PRICE')!.catalogue).toBe('approved');
    expect(by.get('RVT-PRICE')!.findings.map((f) => `${f.check}.${f.code}`)).toEqual(['price.mismatch']);
    expect(by.get('RVT-PRICE')!.findings[0]!.message).toContain('218.00');
    expect(by.get('RVT-PENDING')!.catalogue).toBe('pending');
    expect(by.get('RVT-PENDING')!.findings.map((f) => `${f.check}.${f.code}`)).toEqual(['catalogue.pending']);
    expect(by.get('RVT-FAILED')!.catalogue).toBe('failed');
    expect(by.get('RVT-FAILED')!.findings.map((f) => `${f.check}.${f.code}`)).toEqual(['catalogue.failed']);
    expect(by.get('RVT-UNKNOWN')).toMatchObject({ catalogue: 'unknown', catalogueItemId: null, clearancePrice: null });
    expect(by.get('RVT-UNKNOWN')!.findings.map((f) => `${f.check}.${f.code}`)).toEqual(['catalogue.unknown']);

    const orders = await aes(h, 'orderReview/orders', { id: review.id, limit: 100 }, demo, 'zh-CN');
    expect(orders.status).toBe(200);
    expect(orders.data.review.id).toBe(review.id);
    expect(orders.data.total).toBe(5);
    expect(orders.data.rowErrors).toHaveLength(1);
    expect(orders.data.rowErrors[0].message).toBe('收件人姓名不能为空');
    const counts = Object.fromEntries((orders.data.list as C.ReviewOrderRow[]).map((o) => [o.orderNo, o.findingCount]));
    expect(counts).toEqual({ 'RVT-OK': 0, 'RVT-PRICE': 1, 'RVT-PENDING': 1, 'RVT-FAILED': 1, 'RVT-UNKNOWN': 1 });
    const flagged = await aes(h, 'orderReview/orders', { id: review.id, flaggedOnly: true }, demo);
    expect(flagged.data.total).toBe(4);
    const unknownOnly = await aes(h, 'orderReview/order/items', { id: review.id, catalogue: 'unknown' }, demo);
    expect(unknownOnly.data.list.map((i: C.ReviewItemRow) => i.jan)).toEqual([unknownJan]);
  });

  it('order rules and abnormal rules are findings of the order (minor ID, value over the limit)', async () => {
    const file = await sheet([
      row(11, {
        orderNo: 'RVT-MINOR',
        jan: demoJan(1),
        unitPrice: 58,
        recipientIdCard: idCard(`${new Date().getUTCFullYear() - 10}0101`),
      }),
      row(12, { orderNo: 'RVT-LIMIT', jan: demoJan(5), unitPrice: 6000 }),
    ]);
    const r = await submit(demo, file);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const orders = (await aes(h, 'orderReview/orders', { id: r.data.id }, demo)).data.list as C.ReviewOrderRow[];
    expect(orders).toHaveLength(2);
    const minor = orders.find((o) => o.orderNo === 'RVT-MINOR');
    expect(minor?.findings.map((f) => `${f.check}.${f.code}`)).toEqual(['orderRules.minorId']);
    const limit = orders.find((o) => o.orderNo === 'RVT-LIMIT');
    expect(limit?.findings.map((f) => `${f.check}.${f.code}`)).toContain('abnormal.valueOverLimit');
    // The price check also flags 6000 against the declared 18.00.
    const items = (await aes(h, 'orderReview/order/items', { id: r.data.id, orderId: limit!.id }, demo)).data.list;
    expect(items[0].findings.map((f: C.ReviewFinding) => f.code)).toEqual(['mismatch']);
  });

  it('the tax rules: an order that would take its recipient past the yearly limit is an error, and only that is said', async () => {
    // Six orders of CNY 4,800 to one new recipient: the sixth takes the year to 28,800 > 26,000.
    const recipient = idCard('19850505', '110105', '917');
    const file = await sheet(
      Array.from({ length: 6 }, (_, k) =>
        row(21 + k, { orderNo: `RVT-YEAR-${k + 1}`, jan: demoJan(1), unitPrice: 4800, recipientIdCard: recipient }),
      ),
    );
    const r = await submit(demo, file);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const list = (await aes(h, 'orderReview/orders', { id: r.data.id, limit: 100 }, demo)).data
      .list as C.ReviewOrderRow[];
    expect(list).toHaveLength(6);
    const flagged = list.filter((o) => o.findings.some((f) => f.check === 'tax')).map((o) => o.orderNo);
    expect(flagged).toEqual(['RVT-YEAR-6']);
    const f = list.find((o) => o.orderNo === 'RVT-YEAR-6')!.findings.find((x) => x.check === 'tax')!;
    expect(f).toMatchObject({ code: 'yearlyLimit', severity: 'error' });
    expect(f.message).toContain('26,000');
    expect(f.message).not.toMatch(/28,?800|24,?000/);
  });

  it('customers and agents cannot complete; the operator completes with remarks, once', async () => {
    for (const t of [demo, agent]) {
      const r = await aes(h, 'orderReview/complete', { id: review.id, remarks: 'self-approved' }, t);
      expect(r.status).toBe(403);
    }
    const done = await aes(
      h,
      'orderReview/complete',
      { id: review.id, remarks: '价格与申报不符 / fix RVT-PRICE' },
      operator,
    );
    expect(done.status).toBe(200);
    expect(done.data).toMatchObject({
      status: 1,
      remarks: '价格与申报不符 / fix RVT-PRICE',
      completedBy: expect.any(String),
    });
    const again = await aes(h, 'orderReview/complete', { id: review.id, remarks: 'again' }, operator);
    expect(again.status).toBe(409);
    const list = await aes(h, 'orderReviews', { status: 1, limit: 100 }, demo);
    expect(list.data.list.map((x: C.OrderReviewRow) => x.id)).toContain(review.id);
  });

  it('the customer downloads a workbook whose rows hold the findings and the remarks', async () => {
    const r = await blob('orderReview/downloadInfoItem', { id: review.id }, demo);
    expect(r.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.bytes as never);
    const ws = wb.worksheets[0]!;
    const rows: string[][] = [];
    ws.eachRow((rw) =>
      rows.push(
        Array.from({ length: 15 }, (_, i) => (rw.getCell(i + 1).value == null ? '' : String(rw.getCell(i + 1).value))),
      ),
    );
    expect(rows[0]).toContain('Item findings');
    const data = rows.slice(1);
    expect(data).toHaveLength(5);
    const of = (orderNo: string) => data.find((d) => d[2] === orderNo)!;
    expect(of('RVT-OK')[12]).toBe('');
    expect(of('RVT-PRICE')[12]).toContain('differs from the declared clearance price 218.00');
    expect(of('RVT-PENDING')[12]).toContain('waiting for item review');
    expect(of('RVT-FAILED')[12]).toContain('failed item review');
    expect(of('RVT-UNKNOWN')[12]).toContain('not in your item catalogue');
    expect(of('RVT-UNKNOWN')[10]).toBe('Not in catalogue');
    expect(data.every((d) => d[14] === '价格与申报不符 / fix RVT-PRICE' && d[1] === 'Completed')).toBe(true);
  });

  it('two operators completing at once complete once; the other hears 409', async () => {
    const r = await submit(demo, await sheet([row(51, { orderNo: 'RVT-TWICE', jan: demoJan(1), unitPrice: 58 })]));
    expect(r.status).toBe(200);
    const answers = await Promise.all(
      ['first', 'second', 'third'].map((remarks) =>
        aes(h, 'orderReview/complete', { id: r.data.id, remarks }, operator),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!.data.remarks;
    const now = await aes(h, 'orderReview/orders', { id: r.data.id }, demo);
    expect(now.data.review).toMatchObject({ status: 1, remarks: winner });
  });

  it('delBatch: a completed review is refused (409) and stays', async () => {
    const r = await aes(h, 'orderReview/delBatch', { id: review.id }, demo);
    expect(r.status).toBe(409);
    expect((await aes(h, 'orderReview/orders', { id: review.id }, demo)).status).toBe(200);
  });

  it('delBatch: parallel deletes of a pending review delete it once, with its orders and items', async () => {
    const r = await submit(demo, await sheet([row(21, { orderNo: 'RVT-DEL', jan: demoJan(1), unitPrice: 58 })]));
    expect(r.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => aes(h, 'orderReview/delBatch', { id: r.data.id }, demo)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.every((a) => [200, 404].includes(a.status))).toBe(true);
    const left = await h.db.selectFrom('order_review_items').select('id').where('review_id', '=', r.data.id).execute();
    expect(left).toEqual([]);
    expect((await aes(h, 'orderReview/orders', { id: r.data.id }, demo)).status).toBe(404);
  });
});

describe('progress', () => {
  it("the create answers at once with the review queued; the list reports its parse's percent up to done", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) =>
      row(i + 1, { orderNo: `RVP-${i}`, jan: demoJan(1), unitPrice: 58 }),
    );
    const file = await sheet(rows);
    const id = 'review-progress-1';
    const r = await upload(demo, file, { progressId: id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data).toMatchObject({ parseState: 'queued', parseProgress: 0, orderCount: 0, parseError: null });
    // The call's own progress is the upload's, ended with the call.
    expect((await h.post('export/progress', { id }, demo)).body.data).toMatchObject({ phase: 'done' });
    expect((await h.post('export/progress', { id }, demo2)).body.data.phase).toBe('unknown');
    const seen: C.OrderReviewRow[] = [];
    for (const end = Date.now() + 80_000; Date.now() < end; await new Promise((res) => setTimeout(res, 100))) {
      const now = (await aes(h, 'orderReviews', { reviewNo: r.data.reviewNo }, demo)).data.list[0];
      seen.push(now);
      if (now.parseState === 'done' || now.parseState === 'failed') break;
    }
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ parseState: 'done', parseProgress: 100, orderCount: 3000, parseError: null });
    const figures = seen.map((p) => p.parseProgress);
    // Never goes back, and moves between the start and the end.
    expect(figures).toEqual([...figures].sort((a, b) => a - b));
    expect(
      figures.some((f) => f > 0 && f < 100),
      JSON.stringify(figures),
    ).toBe(true);
    expect(seen.filter((p) => p.parseState === 'parsing').length).toBeGreaterThan(0);
    // Demo2 does not see it.
    expect((await aes(h, 'orderReviews', { reviewNo: r.data.reviewNo }, demo2)).data.total).toBe(0);
  }, 90_000);

  it('a review whose parse has not ended cannot be completed (409), and its orders are not there yet', async () => {
    const r = await submit(demo, await sheet([row(61, { orderNo: 'RVT-NOTYET', jan: demoJan(1), unitPrice: 58 })]));
    expect(r.data.parseState).toBe('done');
    await h.db.updateTable('order_reviews').set({ parse_state: 'parsing' }).where('id', '=', r.data.id).execute();
    const early = await aes(h, 'orderReview/complete', { id: r.data.id, remarks: 'too early' }, operator);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/still being checked/);
    await h.db.updateTable('order_reviews').set({ parse_state: 'done' }).where('id', '=', r.data.id).execute();
    expect((await aes(h, 'orderReview/complete', { id: r.data.id, remarks: 'now' }, operator)).status).toBe(200);
  });
});

describe('tenant matrix', () => {
  it("demo2 and an outsider read, delete, complete and download nothing of demo's; the agent and operator do read", async () => {
    const r = await submit(demo, await sheet([row(31, { orderNo: 'RVT-TEN', jan: demoJan(1), unitPrice: 58 })]));
    expect(r.status).toBe(200);
    const id = r.data.id;
    for (const t of [demo2, other.token]) {
      expect((await aes(h, 'orderReview/orders', { id }, t)).status).toBe(404);
      expect((await aes(h, 'orderReview/order/items', { id }, t)).status).toBe(404);
      expect((await aes(h, 'orderReview/delBatch', { id }, t)).status).toBe(404);
      expect((await blob('orderReview/downloadInfoItem', { id }, t)).status).toBe(404);
      const list = await aes(h, 'orderReviews', { limit: 500 }, t);
      expect(list.status).toBe(200);
      expect(list.data.list.map((x: C.OrderReviewRow) => x.customerId)).not.toContain(demoCustomerId);
      expect(list.data.list.map((x: C.OrderReviewRow) => x.id)).not.toContain(id);
    }
    // The outsider's own list is empty (no seeded reviews), demo2 sees its seeded ones.
    expect((await aes(h, 'orderReviews', {}, other.token)).data.total).toBe(0);
    expect((await aes(h, 'orderReviews', {}, demo2)).data.total).toBeGreaterThan(0);
    // demo2 submitting for demo is refused.
    const forged = await submit(demo2, await sheet([row(32, { orderNo: 'RVT-F', jan: demoJan(1), unitPrice: 58 })]), {
      customerId: demoCustomerId,
    });
    expect(forged.status).toBe(422);
    expect(Object.keys(forged.body.data)).toEqual(['customerId']);

    // The agent of demo reads and downloads; the agent cannot review for the outsider.
    expect((await aes(h, 'orderReview/orders', { id }, agent)).status).toBe(200);
    expect((await blob('orderReview/downloadInfoItem', { id }, agent)).status).toBe(200);
    const agentList = await aes(h, 'orderReviews', { limit: 500 }, agent);
    expect(agentList.data.list.length).toBeGreaterThan(0);
    expect(agentList.data.list.map((x: C.OrderReviewRow) => x.customerId)).not.toContain(other.customerId);
    const forOutsider = await submit(
      agent,
      await sheet([row(33, { orderNo: 'RVT-A', jan: demoJan(1), unitPrice: 58 })]),
      {
        customerId: other.customerId,
      },
    );
    expect(forOutsider.status).toBe(422);
    expect((await aes(h, 'orderReview/orders', { id }, operator)).status).toBe(200);
    // demo2 cannot complete (403: the permission), the operator can complete anyone's.
    expect((await aes(h, 'orderReview/complete', { id, remarks: 'x' }, demo2)).status).toBe(403);
  });

  it("an agent submits for its customer; the review is the customer's", async () => {
    const r = await submit(agent, await sheet([row(41, { orderNo: 'RVT-AG', jan: demoJan(1), unitPrice: 58 })]), {
      customerId: demoCustomerId,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.data.customerId).toBe(demoCustomerId);
    expect((await aes(h, 'orderReview/orders', { id: r.data.id }, demo)).status).toBe(200);
  });
});

describe('AES and input', () => {
  it('every call refuses a plain body (400) and answers sealed', async () => {
    const calls: [string, unknown][] = [
      ['orderReviews', {}],
      ['orderReview/orders', { id: 1 }],
      ['orderReview/order/items', { id: 1 }],
      ['orderReview/delBatch', { id: 1 }],
      ['orderReview/complete', { id: 1, remarks: 'x' }],
      ['orderReview/downloadInfoItem', { id: 1 }],
      ['orderReview/downloadTemplateExcel', {}],
    ];
    const token = operator;
    for (const [path, body] of calls) {
      const plain = await h.post(path, body, token);
      expect(plain.status, path).toBe(400);
    }
    const { payload, contentType } = multipart({}, { name: 'a.xlsx', data: template });
    const up = await h.app.inject({
      method: 'POST',
      url: '/api/orderReview/create',
      headers: { 'content-type': contentType, authorization: `Bearer ${demo}` },
      payload,
    });
    expect(up.statusCode).toBe(400);

    const list = await h.post('orderReviews', sealRequest(demo, {}), demo, { aes: '1' });
    expect(list.status).toBe(200);
    expect(typeof list.body.data).toBe('string');
    expect(list.body.iv).toBeTruthy();
    expect((openResponse(demo, list.body) as any).total).toBeGreaterThan(0);
  });

  it('a file that is not an xlsx, or no file, is a 422 on `file` in both languages; a sheet without orders fails its review', async () => {
    const en = await submit(demo, Buffer.from('not a workbook'));
    expect(en.status).toBe(422);
    expect(en.body.data.file[0]).toMatch(/xlsx/i);
    const zh = await submit(demo, Buffer.from('not a workbook'), {}, 'zh-CN');
    expect(zh.status).toBe(422);
    expect(zh.body.data.file[0]).toMatch(/工作簿|xlsx/);
    const none = await submit(demo, null);
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.data)).toEqual(['file']);
    // A workbook without orders is found out by the parse on the queue: the review fails, with
    // its reason stored as a key and read in the reader's language.
    const empty = await submit(demo, await sheet([]));
    expect(empty.status).toBe(200);
    expect(empty.data).toMatchObject({
      parseState: 'failed',
      parseError: 'The workbook has no order rows.',
      orderCount: 0,
    });
    expect((await parsed(demo, empty.data.reviewNo, 'zh-CN')).parseError).toBe('工作簿中没有订单行。');
    const stored = await h.db
      .selectFrom('order_reviews')
      .select('parse_error')
      .where('id', '=', empty.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.parse_error).toBe('fileNoRows');
  });

  it('list filters, sorts and pages on the server', async () => {
    const all = await aes(h, 'orderReviews', { limit: 500 }, demo);
    expect(all.data.total).toBeGreaterThan(2);
    const page = await aes(h, 'orderReviews', { limit: 1, offset: 1, sort: 'createdAt', order: 'asc' }, demo);
    expect(page.data.list).toHaveLength(1);
    const pending = await aes(h, 'orderReviews', { status: 0, limit: 500 }, demo);
    expect(pending.data.list.length).toBeGreaterThan(0);
    expect(pending.data.list.every((x: C.OrderReviewRow) => x.status === 0)).toBe(true);
    const one = all.data.list[0] as C.OrderReviewRow;
    const byNo = await aes(h, 'orderReviews', { reviewNo: one.reviewNo }, demo);
    expect(byNo.data.list.map((x: C.OrderReviewRow) => x.id)).toEqual([one.id]);
    const bad = await aes(h, 'orderReviews', { status: 7 }, demo);
    expect(bad.status).toBe(422);
  });
});

describe('seed', () => {
  it('demo and demo2 each have a pending review with findings and a completed one', async () => {
    for (const t of [demo, demo2]) {
      const list = (await aes(h, 'orderReviews', { limit: 500, sort: 'createdAt', order: 'asc' }, t)).data
        .list as C.OrderReviewRow[];
      const seeded = list.filter((r) => r.fileName.startsWith('review-'));
      expect(seeded.map((r) => r.status).sort()).toEqual([0, 1]);
      const pending = seeded.find((r) => r.status === 0)!;
      expect(pending.flaggedOrders).toBeGreaterThan(0);
      const items = (await aes(h, 'orderReview/order/items', { id: pending.id, limit: 100 }, t)).data
        .list as C.ReviewItemRow[];
      expect(new Set(items.map((i) => i.catalogue))).toEqual(new Set(['approved', 'pending', 'failed', 'unknown']));
      expect(items.some((i) => i.findings.some((f) => f.code === 'mismatch'))).toBe(true);
    }
  });
});
