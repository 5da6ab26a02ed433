import { beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness, type Instance } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';
import { stopTooOften } from '../support/stopped.ts';
import { importCall, importPreview } from '../support/item-imports.ts';
import { heldStore, INSTANCES_ENV } from '../support/two-instances.ts';

/**
 * Issue 38, an item import's side: a commit whose runs keep being cut short (its process dies each
 * time) is not left "committing" for good: once the queue gives up on it, the import is failed
 * with `jobStoppedTooOften` in both languages and none of its items written. Both engines
 * (support/stopped.ts); the commit is held under way at its reading of the stored rows.
 */
const held = heldStore('get', (key) => key.endsWith('.json'));

let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ env: INSTANCES_ENV, storage: held.storage });
  held.attach(h);
  demo = await h.login('demo');
});

const call = (app: Instance['app'], path: string, body: unknown) => importCall(app, demo, path, body);
const preview = (n: number, group: string) => importPreview(h, demo, n, group);

it('a commit stopped too often fails its import with the reason, in both languages', async () => {
  const { id, jans } = await preview(2, 'stopped');
  const g = held.closeGate();
  expect((await call(h.app, 'item/import/confirm', { id })).status).toBe('committing');
  await waitFor('the commit under way', () => g.reached, 20_000);
  await stopTooOften(h, 'item-import-commit');
  await waitFor(
    'the import failed',
    async () =>
      (await h.db.selectFrom('item_imports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status !==
      'committing',
    30_000,
  );
  g.open();
  const m = await h.db
    .selectFrom('item_imports')
    .select(['status', 'error_message', 'valid_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(m).toMatchObject({ status: 'failed', valid_key: null });
  expect(m.error_message).toMatch(
    /^该任务多次在完成前被中断.* \/ This job was stopped before it finished too many times/,
  );
  // As the page reads it.
  expect((await call(h.app, 'item/import/progress', { id })).errorMessage).toBe(m.error_message);
  // The held run, let go, writes nothing: the import ended.
  await new Promise((r) => setTimeout(r, 500));
  const items = await h.db.selectFrom('items').select('id').where('jan', 'in', jans).execute();
  expect(items).toEqual([]);
  expect(
    (await h.db.selectFrom('item_imports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
  ).toBe('failed');
}, 60_000);
