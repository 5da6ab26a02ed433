import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { createDatabase, type Database } from '../../src/db/database.ts';
import { DEMO_ACCOUNTS } from '../../src/seed/demo.ts';
import { migrateToLatest, pendingMigrations } from '../../src/db/migrate.ts';
import { prepareDatabase, StartError } from '../../src/start.ts';
import { emptyDatabase, listening } from '../harness.ts';

/**
 * Issue 27, finding 8: two instances started at once on an empty database with DEMO_SEED=1 (a
 * deploy of two machines). Both migrated, both found no demo user, both inserted one, and the
 * second crashed on the unique user name. Here two starts (each its own DATA_DIR and connections)
 * run what server.ts runs before listening, at the same time; both must come up, with the demo
 * data written once.
 */
const dirs: string[] = [];
const dbs: Database[] = [];
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  for (const db of dbs) await db.destroy();
  await drop?.();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function instance(url: string, env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-cold-'));
  dirs.push(dir);
  const config = testConfig({
    DATABASE_URL: url,
    DATA_DIR: dir,
    WEB_DIST: path.join(dir, 'no-web'),
    DEMO_SEED: 'true',
    ...env,
  });
  const db = createDatabase(config.database);
  dbs.push(db);
  return { config, db };
}

// Several instances share a PostgreSQL database; a SQLite file is served by one instance, so on
// SQLite the second start comes after the first (a restart) and must find the demo data.
const pg = !!process.env.TEST_DATABASE_URL;

describe('two cold starts', () => {
  it(`${pg ? 'at once' : 'one after the other'}: both come up on an empty database, and the demo data is written once`, async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'console-cold-db-'));
    dirs.push(shared);
    const empty = await emptyDatabase(shared);
    drop = empty.drop;
    const a = instance(empty.url);
    const b = instance(empty.url);
    const start = (i: typeof a) => prepareDatabase(i.config, i.db, { orders: 20 });
    const started = pg
      ? await Promise.allSettled([start(a), start(b)])
      : [...(await Promise.allSettled([start(a)])), ...(await Promise.allSettled([start(b)]))];
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'up'))).toEqual(['up', 'up']);
    // Exactly one of them wrote the demo data.
    expect(started.map((s) => s.status === 'fulfilled' && s.value.seeded).sort()).toEqual([false, true]);
    const users = await a.db.selectFrom('users').select('name').execute();
    for (const acc of DEMO_ACCOUNTS) expect(users.filter((u) => u.name === acc.name)).toHaveLength(1);
    const customers = await a.db
      .selectFrom('customers')
      .select('code')
      .where('code', 'in', ['DEMO', 'DEMO2'])
      .execute();
    expect(customers).toHaveLength(2);
    // And both serve: a demo user logs in on each.
    for (const inst of [a, b]) {
      const app = await buildApp({ config: inst.config, db: inst.db });
      try {
        const client = await listening(app);
        expect(await client.login('demo')).toBeTruthy();
      } finally {
        await app.close();
      }
    }
  });

  it('with MIGRATE_ON_START=false a start refuses a database with migrations not run, and serves once `migrate` ran them', async () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'console-migrate-db-'));
    dirs.push(shared);
    const empty = await emptyDatabase(shared);
    const a = instance(empty.url, { MIGRATE_ON_START: 'false' });
    try {
      const refused = await prepareDatabase(a.config, a.db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(StartError);
      expect((refused as Error).message).toMatch(
        /MIGRATE_ON_START is false and \d+ migration\(s\) have not run .*npm run migrate/,
      );
      // Nothing was created: the deployment's migrate step does that.
      expect((await pendingMigrations(a.db)).length).toBeGreaterThan(0);
      // The separate step (what `npm run migrate` runs); on PostgreSQL twice at once, as two
      // deploy jobs might (Kysely's migrator on SQLite expects one process per file).
      const b = instance(empty.url);
      if (pg) await Promise.all([migrateToLatest(a.db), migrateToLatest(b.db)]);
      else await migrateToLatest(b.db);
      expect(await pendingMigrations(a.db)).toEqual([]);
      expect(await prepareDatabase(a.config, a.db, { orders: 5 })).toEqual({ seeded: true });
    } finally {
      for (const db of dbs.splice(0)) await db.destroy();
      await empty.drop?.();
    }
  });
});

describe('roles on one process', () => {
  it.each(['web', 'worker'])(
    'SERVER_ROLE=%s is refused at start on SQLite, and starts on PostgreSQL (issue 38 row 9)',
    async (role) => {
      const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'console-role-db-'));
      dirs.push(shared);
      const empty = await emptyDatabase(shared);
      const a = instance(empty.url, { SERVER_ROLE: role });
      try {
        const result = await prepareDatabase(a.config, a.db, { orders: 5 }).then(
          () => null,
          (e: unknown) => e,
        );
        if (pg) expect(result).toBeNull();
        else {
          expect(result).toBeInstanceOf(StartError);
          expect((result as Error).message).toMatch(new RegExp(`SERVER_ROLE=${role} needs PostgreSQL`));
        }
      } finally {
        for (const db of dbs.splice(0)) await db.destroy();
        await empty.drop?.();
      }
    },
  );
});
