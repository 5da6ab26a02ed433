import { beforeAll, describe, expect, it } from 'vitest';
import { createFiles } from '../../src/lib/files.ts';
import { expireKeptUpload, KEPT_UPLOADS, keptUploadsDue } from '../../src/lib/files.retention.ts';
import { openResponse, sealRequest } from '../aes-client.ts';
import { baseRow, fill, idCard, settle, template, upload } from '../batches/helpers.ts';
import { aes, aesBlob, aesUpload, fetchImage, png } from '../items/helpers.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';

/**
 * Issue 36, item 5: uploads were kept for ever (`orderReviewUpload` was not temporary and no sweep
 * looked at it; batch sheets, ID card and item images likewise). Each kind of upload now has its
 * retention rule (lib/files.retention.ts): kept while the record that names it needs it, then gone
 * once it is older than FILE_RETENTION_DAYS — an order review's sheet at once when the review is
 * completed. The sweep is the one the server runs every FILE_SWEEP_MINUTES, run here with a clock.
 */
const DAY = 86_400_000;
let h: Harness;
let demo: string;
let operator: string;
let customerId: number;
let demoUser: number;
let sheet: Buffer;
let reviewSheet: Buffer;

beforeAll(async () => {
  // The queue looked at often: three review parses run in the first test.
  h = await createHarness({ env: { JOB_POLL_SECONDS: '0.5' } });
  [demo, operator] = await Promise.all([h.login('demo'), h.login('operator')]);
  const u = await h.db
    .selectFrom('users')
    .select(['id', 'customer_id'])
    .where('name', '=', 'demo')
    .executeTakeFirstOrThrow();
  [demoUser, customerId] = [u.id, u.customer_id!];
  sheet = await fill(await template(h, demo, 'download/importOrder'), [baseRow(1)]);
  const t = await aesBlob(h, 'orderReview/downloadTemplateExcel', {}, demo);
  reviewSheet = await fill(t.bytes, [baseRow(1, { channel: 'JP', currency: 'CNY', quantity: 1 })]);
});

/** The sweep as the server runs it, at `at` (FILE_RETENTION_DAYS 7). */
const sweep = (at: Date) => createFiles(h.db, h.storage).sweep(at, 7);
const later = () => new Date(Date.now() + 8 * DAY);
const file = (id: number) =>
  h.db.selectFrom('files').select(['storage_key', 'expired_at', 'size']).where('id', '=', id).executeTakeFirstOrThrow();
/** Whether a file's bytes are still kept: its row not expired and its bytes in the store. */
async function kept(id: number) {
  const f = await file(id);
  const stored = await h.stored(f.storage_key);
  // Never one without the other.
  expect(f.expired_at === null).toBe(stored);
  return stored;
}
const storedBytes = async () => (await createFiles(h.db, h.storage).storedBytes([customerId])).get(customerId) ?? 0;

async function review() {
  const m = multipart(sealRequest(demo, {}), { name: 'review.xlsx', data: reviewSheet });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/orderReview/create',
    headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, aes: '1' },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = openResponse(demo, res.json()) as { id: number };
  for (let i = 0; i < 2400; i++) {
    const r = await h.db
      .selectFrom('order_reviews')
      .select(['parse_state', 'file_id'])
      .where('id', '=', id.id)
      .executeTakeFirstOrThrow();
    if (r.parse_state === 'done') return { id: id.id, fileId: r.file_id! };
    if (r.parse_state === 'failed') throw new Error('review parse failed');
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('review never parsed');
}

describe('uploads are kept by their rule, then swept', () => {
  it('order reviews: the sheet stays while its review is open and young, goes when the review is completed or after the retention', async () => {
    const [done, open, queued] = await Promise.all([review(), review(), review()]);
    const before = await storedBytes();
    expect(await sweep(new Date())).toBe(0);
    expect([await kept(done.fileId), await kept(open.fileId), await kept(queued.fileId)]).toEqual([true, true, true]);

    const completed = await aes(h, 'orderReview/complete', { id: done.id, remarks: 'checked' }, operator);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    // A review whose parse waits in the queue (another instance's, say) still needs its sheet.
    await h.db.updateTable('order_reviews').set({ parse_state: 'queued' }).where('id', '=', queued.id).execute();

    expect(await sweep(new Date())).toBe(1);
    expect([await kept(done.fileId), await kept(open.fileId), await kept(queued.fileId)]).toEqual([false, true, true]);
    expect(await storedBytes()).toBe(before - (await file(done.fileId)).size);

    await sweep(later());
    expect([await kept(open.fileId), await kept(queued.fileId)]).toEqual([false, true]);
  }, 120_000);

  it('batches: the sheet stays while the batch parses or awaits a confirm without its parsed orders, then goes after the retention', async () => {
    const ids = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const up = await upload(
          h,
          'order/batch/createImport',
          demo,
          { channel: 'JP' },
          { name: `b${i}.xlsx`, data: sheet },
        );
        expect(up.status).toBe(200);
        expect(await settle(h, demo, up.body.data.id)).toMatchObject({ status: 'preview' });
        return up.body.data.id as number;
      }),
    );
    const [previewed, parsing, legacy] = ids as [number, number, number];
    await h.db.updateTable('batches').set({ status: 'parsing' }).where('id', '=', parsing).execute();
    // A preview stored before previews were kept as parsed orders: its confirm parses the sheet again.
    await h.db.updateTable('batches').set({ parsed_key: null }).where('id', '=', legacy).execute();
    const fileOf = async (id: number) =>
      (await h.db.selectFrom('batches').select('file_id').where('id', '=', id).executeTakeFirstOrThrow()).file_id!;

    await sweep(new Date());
    expect(await kept(await fileOf(previewed))).toBe(true);
    await sweep(later());
    expect([
      await kept(await fileOf(previewed)),
      await kept(await fileOf(parsing)),
      await kept(await fileOf(legacy)),
    ]).toEqual([false, true, true]);
  }, 120_000);

  it('ID card images: the sides a card names stay; a replaced one goes after the retention', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(8192, 7)]);
    const target = { side: 'front', name: 'Retention Test', idCard: idCard('19900101', '110105', '777') };
    const send = async () => {
      const m = multipart(target, { name: 'front.jpg', data: jpeg, type: 'image/jpeg' });
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/order/idCard/upload',
        headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}` },
        payload: m.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      const card = await h.db
        .selectFrom('id_cards')
        .select('front_file_id')
        .where('id', '=', res.json().data.id)
        .executeTakeFirstOrThrow();
      return card.front_file_id!;
    };
    const replaced = await send();
    const current = await send();
    expect(current).not.toBe(replaced);
    await sweep(new Date());
    expect(await kept(replaced)).toBe(true);
    await sweep(later());
    expect([await kept(replaced), await kept(current)]).toEqual([false, true]);
  });

  it('item images: one an item shows stays; one never used goes after the retention', async () => {
    const up = async () => {
      const r = await aesUpload(h, 'item/image/upload', demo, { name: 'i.png', data: png(200, 200) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.data.imageId as number;
    };
    const [unused, shown] = [await up(), await up()];
    const item = await h.db
      .selectFrom('items')
      .select('id')
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    await h.db.updateTable('items').set({ image_file_id: shown }).where('id', '=', item.id).execute();
    await sweep(later());
    expect([await kept(unused), await kept(shown)]).toEqual([false, true]);
    // The removed one is no image: not shown (404), not given to an item.
    expect((await fetchImage(h, demo, unused)).status).toBe(404);
    expect((await fetchImage(h, demo, shown)).status).toBe(200);
  });

  it('export permits: the one a declaration names stays; one replaced goes after the retention', async () => {
    const files = createFiles(h.db, h.storage);
    const permit = () =>
      files.save({
        customer_id: customerId,
        owner_user_id: demoUser,
        kind: 'export-permit',
        name: 'permit.pdf',
        mime: 'application/pdf',
        created_at: new Date().toISOString(),
        data: Buffer.from('%PDF-1.4 permit'),
      });
    const [replaced, named] = [await permit(), await permit()];
    const order = await h.db
      .selectFrom('orders')
      .select('id')
      .where('customer_id', '=', customerId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('export_declarations as d').select('d.order_id').whereRef('d.order_id', '=', 'orders.id'),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('export_declarations')
      .values({
        order_id: order.id,
        customer_id: customerId,
        product_name: 'goods',
        amount_jpy: 1000,
        permit_file_id: named,
        permit_uploaded_at: new Date().toISOString(),
        permit_uploaded_by: demoUser,
        permit_emailed_at: null,
        permit_email_error: null,
        permit_email_error_id: null,
        updated_by: demoUser,
        updated_at: new Date().toISOString(),
      })
      .execute();
    await sweep(later());
    expect([await kept(replaced), await kept(named)]).toEqual([false, true]);
  });

  it('an upload named by its record between the sweep finding it and marking it is kept', async () => {
    const r = await aesUpload(h, 'item/image/upload', demo, { name: 'late.png', data: png(200, 200) });
    const imageId = r.data.imageId as number;
    const rule = KEPT_UPLOADS.find((k) => k.kind === 'itemImage')!;
    const before = new Date(Date.now() + DAY).toISOString();
    const due = await keptUploadsDue(h.db, rule, before, imageId - 1, 10);
    expect(due.map((f) => f.id)).toContain(imageId);
    const item = await h.db
      .selectFrom('items')
      .select('id')
      .where('customer_id', '=', customerId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await h.db.updateTable('items').set({ image_file_id: imageId }).where('id', '=', item.id).execute();
    expect(await expireKeptUpload(h.db, rule, imageId, before, new Date().toISOString())).toBe(false);
    expect(await kept(imageId)).toBe(true);
  });
});
