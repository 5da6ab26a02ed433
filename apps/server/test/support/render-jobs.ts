import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { TEST_RENDERS } from './test-renders.ts';

/** What the render queue's tests need of one instance's module graph (lib/fair-turns.ts, lib/workbook-job.ts). */
export interface RenderSide {
  asTenant: typeof import('../../src/lib/fair-turns.ts').asTenant;
  renderFile: typeof import('../../src/lib/workbook-job.ts').renderFile;
}

const GATE = { kind: TEST_RENDERS.gate };

/** The renders' rows by state. */
export async function renderStates(db: Database) {
  const rows = await db.selectFrom('export_renders').select(['state', 'rendered_by']).execute();
  return {
    running: rows.filter((r) => r.state === 'running'),
    queued: rows.filter((r) => r.state === 'queued'),
    all: rows,
  };
}

/**
 * Customer A asks for three heavy renders held at a gate (and, with `alsoHeavy`, that customer
 * for one more), then customer B for a small one, all on `asker`; jobs run wherever the queue runs them. Checks the queue's rule by order, not time:
 * B's answer arrives while A's first still holds its worker and A's others wait behind it.
 * Resolves with the renderers seen, once A's renders have come after the gate opened.
 */
export async function smallBesideHeavy(asker: RenderSide, db: Database, opts: { alsoHeavy?: string } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-gate-'));
  const gate = path.join(dir, 'open');
  const finished: string[] = [];
  const ask = (tenant: string, label: string, pages: number, arg: object) =>
    asker.asTenant(tenant, () =>
      asker.renderFile({ ...GATE, arg }, { ext: 'pdf', total: pages }).then((file) => {
        const text = fs.readFileSync(file, 'utf8');
        fs.rmSync(file, { force: true });
        finished.push(label);
        return text;
      }),
    );
  const heavy = [1, 2, 3].map((k) => ask('c1', `A${k}`, 6000, { gate, text: `A${k}` }));
  // Another customer's heavy render beside A's first: together they hold every slot heavy jobs may take.
  const other = opts.alsoHeavy ? ask(opts.alsoHeavy, 'C1', 6000, { gate, text: 'C1' }) : null;
  const heavyRunning = other ? 2 : 1;
  let seen = await renderStates(db);
  for (const end = Date.now() + 30_000; seen.running.length < heavyRunning; seen = await renderStates(db)) {
    if (Date.now() > end) throw new Error('the heavy renders did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  // B's small one: the gate is open for it from the start.
  fs.writeFileSync(path.join(dir, 'b'), '');
  // The heavy ones never end while the gate is shut: a small render queued behind them never answers.
  const small = await Promise.race([
    ask('c2', 'B1', 1, { gate: path.join(dir, 'b'), text: 'B1' }),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the small render waited behind the heavy ones')), 20_000).unref(),
    ),
  ]);
  expect(small).toBe('B1');
  const during = await renderStates(db);
  expect(finished).toEqual(['B1']);
  // A's second and third wait behind its first: one heavy render per customer at a time.
  expect(during.running).toHaveLength(heavyRunning);
  expect(during.queued).toHaveLength(2);
  fs.writeFileSync(gate, '');
  expect(await Promise.all(heavy)).toEqual(['A1', 'A2', 'A3']);
  if (other) expect(await other).toBe('C1');
  fs.rmSync(dir, { recursive: true, force: true });
  return [...seen.running.map((r) => r.rendered_by), ...during.running.map((r) => r.rendered_by)];
}
