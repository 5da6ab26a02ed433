import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createDatabase } from '../../src/db/database.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * Issue 27: behind a load balancer, liveness (`/api/health`: the process answers, no database)
 * and readiness (`/api/ready`: the database and the file store answer). Not ready is 503 with a
 * plain reason key, never the internal error's text.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: false });
});

const get = async (app: Harness['app'], url: string) => {
  const r = await app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.json() };
};

describe('health and readiness', () => {
  it('health answers as before; ready answers 200 when the database and the file store answer', async () => {
    expect(await get(h.app, '/api/health')).toEqual({
      status: 200,
      body: { code: 200, message: 'ok', data: { status: 'up', version: expect.any(String) } },
    });
    expect(await get(h.app, '/api/ready')).toEqual({
      status: 200,
      body: { code: 200, message: 'ok', data: { status: 'ready', version: expect.any(String) } },
    });
    // The probe file is removed.
    expect(fs.readdirSync(h.dataDir).filter((f) => f.startsWith('.ready-'))).toEqual([]);
  });

  it('the database gone: ready is 503 databaseUnreachable (no internal text), health still 200', async () => {
    const db = createDatabase(h.config.database);
    const app = await buildApp({ config: h.config, db });
    await db.destroy();
    try {
      const r = await get(app, '/api/ready');
      expect(r).toEqual({
        status: 503,
        body: { code: 503, message: 'not ready', data: { status: 'unready', reason: 'databaseUnreachable' } },
      });
      expect((await get(app, '/api/health')).status).toBe(200);
    } finally {
      await app.close().catch(() => undefined);
    }
  });

  it('DATA_DIR not writable: ready is 503 fileStoreUnwritable, without the path', async () => {
    const dir = fs.mkdtempSync(`${h.dataDir}/gone-`);
    const app = await buildApp({ config: { ...h.config, DATA_DIR: dir }, db: h.db });
    try {
      expect((await get(app, '/api/ready')).status).toBe(200);
      // The folder replaced by a file: nothing can be written under it.
      fs.rmSync(dir, { recursive: true });
      fs.writeFileSync(dir, 'not a folder');
      const r = await get(app, '/api/ready');
      expect(r).toEqual({
        status: 503,
        body: { code: 503, message: 'not ready', data: { status: 'unready', reason: 'fileStoreUnwritable' } },
      });
      expect(JSON.stringify(r.body)).not.toContain(dir);
    } finally {
      await app.close();
    }
  });
});
