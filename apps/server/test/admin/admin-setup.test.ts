import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { admin, bills, storageOrders } from '@console/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { createDatabase } from '../../src/db/database.ts';
import { createHarness, multipart } from '../harness.ts';
import { aes } from '../items/helpers.ts';
import { validRecipient } from '../support/orders.ts';

/**
 * The first-admin CLI (issue 17) says which database it wrote to and refuses a weak password
 * with the console's policy; a database without demo data (DEMO_SEED=false) plus that admin is
 * enough to set up a customer and its user from the console's calls. And reading an ID-card
 * image leaves an audit row.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'console-cli-'));
  dirs.push(d);
  return d;
}

/** The CLI as an operator runs it, with Node 24 (this process's binary). */
function createAdmin(args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _u, ...rest } = process.env;
  const r = spawnSync(process.execPath, ['src/cli/create-admin.ts', ...args], {
    cwd: serverDir,
    env: { ...rest, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('create-admin', () => {
  it('refuses a weak password with the policy, exit code not 0, nothing written', () => {
    const dir = tempDir();
    const file = path.join(dir, 'weak.sqlite');
    const r = createAdmin(['--name', 'boss', '--password', 'password'], { DATABASE_URL: file, DATA_DIR: dir });
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/password: .*at least three of/i);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('says which database it wrote to, also without DATABASE_URL (the default SQLite file)', () => {
    const dir = tempDir();
    const r = createAdmin(['--name', 'boss', '--password', 'Quiet-Harbour-71'], { DATA_DIR: dir });
    expect(r.code).toBe(0);
    const file = path.join(dir, 'console.sqlite');
    expect(r.out).toContain(`Database: SQLite file ${file}`);
    expect(r.out).toMatch(/DATABASE_URL is not set/);
    expect(r.out).toContain(`Admin boss created in SQLite file ${file}.`);
    const again = createAdmin(['--name', 'boss', '--password', 'Quiet-Harbour-71'], { DATA_DIR: dir });
    expect(again.code).not.toBe(0);
    expect(again.out).toContain(`exists already in SQLite file ${file}`);
  });

  it('DEMO_SEED=false and the CLI admin: a customer and its user set up from the console calls', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'prod.sqlite');
    expect(createAdmin(['--name', 'chief', '--password', 'Quiet-Harbour-71'], { DATABASE_URL: file }).code).toBe(0);
    const config = testConfig({
      DATABASE_URL: file,
      DATA_DIR: dir,
      WEB_DIST: path.join(dir, 'no-web'),
      DEMO_SEED: 'false',
    });
    const db = createDatabase(config.database);
    const app = await buildApp({ config, db, clock: () => new Date() });
    await app.ready();
    try {
      const post = async (p: string, body: unknown, token?: string) => {
        const res = await app.inject({
          method: 'POST',
          url: `/api/${p}`,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          payload: JSON.stringify(body),
        });
        return { status: res.statusCode, body: res.json() };
      };
      expect(await db.selectFrom('customers').select('id').execute()).toEqual([]);
      const login = await post('login', { name: 'chief', password: 'Quiet-Harbour-71' });
      expect(login.status).toBe(200);
      const chief = login.body.data.access_token as string;
      const h = {
        post: async (p: string, b: unknown, t?: string, hd: Record<string, string> = {}) => {
          const res = await app.inject({
            method: 'POST',
            url: `/api/${p}`,
            headers: { 'content-type': 'application/json', ...(t ? { authorization: `Bearer ${t}` } : {}), ...hd },
            payload: typeof b === 'string' ? b : JSON.stringify(b),
          });
          return { status: res.statusCode, body: res.json(), headers: res.headers };
        },
      } as never;
      const me = await aes(h, 'me', {}, chief);
      expect(me.data.accessedRoutes.map((r: { name: string }) => r.name)).toEqual(
        expect.arrayContaining(['system.customers', 'system.users', 'system.roles', 'system.audit']),
      );
      const cust = await post(admin.createCustomer.path, { code: 'FIRST', name: 'First Customer' }, chief);
      expect(cust.status).toBe(200);
      const user = await aes(
        h,
        admin.createUser.path,
        { name: 'first.user', displayName: 'First', role: 'customer', customerId: cust.body.data.id },
        chief,
      );
      expect(user.status).toBe(200);
      const ul = await post('login', { name: 'first.user', password: user.data.password });
      expect(ul.body.data.mustChangePassword).toBe(true);
      const t = ul.body.data.access_token as string;
      expect(
        (await post('updatePassWord', { old_password: user.data.password, password: 'Bright-Lantern-42' }, t)).status,
      ).toBe(200);
      const userMe = await aes(h, 'me', {}, t);
      expect(userMe.data.customer).toMatchObject({ code: 'FIRST' });
      expect(userMe.data.accessedRoutes.map((r: { name: string }) => r.name)).toContain('order.list');

      // Billed: the admin sets the channel's rate card; the customer's order is weighed at the
      // scan, shipped, and its freight is on the customer's open statement.
      const call = async (def: { path: string; aes?: boolean }, body: unknown, token: string): Promise<any> => {
        if (def.aes) {
          const r = await aes(h, def.path, body, token);
          expect(r.status, `${def.path} ${JSON.stringify(r.body)}`).toBe(200);
          return r.data;
        }
        const r = await post(def.path, body, token);
        expect(r.status, `${def.path} ${JSON.stringify(r.body)}`).toBe(200);
        return r.body.data;
      };
      const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
      await call(
        bills.saveRateCard,
        {
          channelCode: 'JP',
          effectiveFrom: today,
          rules: { firstWeightG: 500, firstPrice: 1000, brackets: [{ upToG: null, stepG: 500, price: 200 }] },
        },
        chief,
      );
      const order = await call(
        { path: 'order/createImport' },
        {
          channel: 'JP',
          orderNo: 'FIRST-0001',
          recipient: validRecipient,
          sender: { name: 'First Trading', address: 'Tokyo', phone: '03-1234-5678' },
          items: [{ jan: '4901234567894', name: '明治 奶粉', quantity: 1, unitPrice: '1500' }],
          confirm: ['minorId', 'crossBorderLimit', 'multiplePricesPerJan'],
        },
        t,
      );
      const stored = await call(
        storageOrders.createStorageOrder,
        { waybillNos: [order.waybillNo], grossWeightsG: [1200] },
        chief,
      );
      expect(stored.lines.map((l: { outcome: string }) => l.outcome)).toEqual(['received']);
      const shipped = await call(storageOrders.outBatch, { orderIds: [order.id] }, chief);
      expect(shipped.lines.map((l: { outcome: string }) => l.outcome)).toEqual(['shipped']);
      const statements = await call(bills.bills, { status: 'open' }, t);
      expect(statements.list).toHaveLength(1);
      const lines = await call(bills.billLines, { id: statements.list[0].id }, t);
      // 1,200 g: the first 500 g (1,000) and two started steps of 500 g (2 × 200); the tax
      // estimate passes through in CNY.
      const got = lines.list
        .map((l: { kind: string; amount: string; currency: string }) => [l.kind, l.amount, l.currency])
        .sort();
      expect(got).toEqual([
        ['freight', '1400', 'JPY'],
        ['tax', expect.stringMatching(/^\d+\.\d{2}$/), 'CNY'],
      ]);
      expect(Number(got[1][1])).toBeGreaterThan(0);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe('sensitive reads', () => {
  it('an ID-card image read writes who read whose card, and from where', async () => {
    const h = await createHarness();
    const demo = await h.login('demo');
    const operator = await h.login('operator');
    const demoId = (
      await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow()
    ).id;
    const order = await h.db
      .selectFrom('orders')
      .select('id')
      .where('customer_id', '=', demoId)
      .where('status', '=', 'created')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const m = multipart(
      { side: 'front', orderId: String(order.id) },
      { name: 'f.jpg', data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4096, 7)]) },
    );
    const up = await h.app.inject({
      method: 'POST',
      url: '/api/order/idCard/upload',
      headers: { authorization: `Bearer ${demo}`, 'content-type': m.contentType },
      payload: m.payload,
    });
    expect(up.statusCode).toBe(200);
    const cardId = up.json().data.id as number;
    const img = await h.post('order/idCard/image', { id: cardId, side: 'front' }, operator);
    expect(img.status).toBe(200);
    const log = await h.post(admin.auditList.path, { action: 'idCard.image' }, operator);
    expect(log.body.data.list).toHaveLength(1);
    expect(log.body.data.list[0]).toMatchObject({
      userName: 'operator',
      action: 'idCard.image',
      target: `idCard:${cardId}`,
      detail: 'front',
    });
    // A refused read (demo2 asking for demo's card) reads nothing and logs nothing.
    const demo2 = await h.login('demo2');
    expect((await h.post('order/idCard/image', { id: cardId, side: 'front' }, demo2)).status).toBe(404);
    expect((await h.post(admin.auditList.path, { action: 'idCard.image' }, operator)).body.data.total).toBe(1);
  });
});
