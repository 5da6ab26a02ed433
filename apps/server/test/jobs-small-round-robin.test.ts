import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createJobQueue } from '../src/lib/jobs.ts';
import { waitFor } from './support/jobs.ts';

/**
 * Issue 36 item 3, the embedded runner (SQLite whatever the run's database): small jobs were
 * claimed first come, first served, so thirty of one tenant's small renders queued ahead of
 * another's one-page export made it wait behind all thirty. Now the next job is the oldest of the
 * tenant served longest ago: tenants take turns. Claims are recorded in order; nothing is timed.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-rr-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('small jobs are claimed round-robin by tenant: the victim’s is claimed before the attacker’s remaining ones', async () => {
  const config = testConfig({
    DATABASE_URL: path.join(dir, 'test.sqlite'),
    DATA_DIR: dir,
    WEB_DIST: path.join(dir, 'no-web'),
  });
  const db = createDatabase(config.database);
  await migrateToLatest(db);
  const queue = createJobQueue({ config, db, log: { warn: () => {}, error: () => {} } });
  const claimed: string[] = [];
  const release = new Map<string, () => void>();
  queue.define<{ id: string }>({
    name: 'test-small',
    run: (p) => {
      claimed.push(p.id);
      return new Promise<void>((r) => release.set(p.id, r));
    },
  });
  try {
    // All queued before the runner starts: the attacker's ten first, then the victim's two.
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 10; i++) await queue.enqueue('test-small', { id: `a${i}` }, { trx, customerId: 1 });
      for (let i = 0; i < 2; i++) await queue.enqueue('test-small', { id: `v${i}` }, { trx, customerId: 2 });
    });
    await queue.start();
    // Three slots (two, plus the one kept for small jobs): filled one tenant after the other.
    await waitFor('three claimed', () => claimed.length >= 3);
    expect(claimed.slice(0, 3)).toEqual(['a0', 'v0', 'a1']);
    // One ends: the next turn is the victim's again, not the attacker's third.
    release.get('a0')!();
    await waitFor('a fourth claimed', () => claimed.length >= 4);
    expect(claimed[3]).toBe('v1');
    for (let n = 4; n < 12; n++) {
      release.get(claimed[n - 3]!)!();
      await waitFor(`claim ${n + 1}`, () => claimed.length > n);
    }
    expect(claimed.slice(4)).toEqual(['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
  } finally {
    for (const r of release.values()) r();
    await queue.stop();
    await db.destroy();
  }
});
