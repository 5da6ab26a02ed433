import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createParsePool, type ParseRun } from '../../src/modules/batches/parse-pool.ts';
import type { ParseJob } from '../../src/modules/batches/parse.protocol.ts';
import { sheetWorkbook } from '../support/zip.ts';

/**
 * Issue 27: CI's vitest worker died once with SIGSEGV while finding-03 closed an app during a
 * parse: the pool terminated the parse thread in the middle of native zlib work. Workers are
 * now asked to stop by message and awaited; terminate() is the last resort after a grace period.
 */
const rows = (count: number) => {
  const out: string[] = [];
  for (let r = 1; r <= count; r++) out.push(`<row r="${r}"><c r="A${r}"><v>${r * 7919}</v></c></row>`);
  return out.join('');
};
// 100,000 rows with no header: the worker walks every one looking for it (seconds, in many inflated chunks).
const slowSheet = sheetWorkbook(rows(100_000));

const jobOf = (file: Buffer): ParseJob => ({
  file: new Uint8Array(file),
  kind: 'order',
  channel: null,
  customerId: 1,
  exportNominationId: null,
  clearanceCompany: null,
  now: new Date().toISOString(),
  lang: 'en',
  maxRows: 100_000,
  currencies: [],
  channels: [],
  orderTypes: [],
  clearanceCompanies: [],
  channelTax: [],
  allowedChannels: null,
  defaultSender: null,
});

/** A run that resolves `started` at the parse's first progress: the worker is inflating rows. */
const runOf = () => {
  let onProgress!: () => void;
  const started = new Promise<void>((r) => (onProgress = r));
  const run: ParseRun = {
    onProgress,
    existingOrderNos: async () => [],
    lookup: async () => ({ entries: [], yearly: [] }),
  };
  return { run, started };
};

afterEach(() => vi.restoreAllMocks());

describe('parse pool: workers are asked to stop, not terminated mid-parse', () => {
  it('close() during a parse: the parse ends as parseShutdown, its worker exits by itself', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    const terminated = vi.fn();
    const pool = createParsePool({ workers: 1, timeoutMs: 600_000, memoryMb: 256, onTerminated: terminated });
    const { run, started } = runOf();
    const outcome = pool.run(jobOf(slowSheet), run);
    // On a machine loaded many times over, the parse's time budget (parse-budget.ts) may end it
    // first: its worker is then asked to stop too, which is what is checked.
    await Promise.race([started, outcome]);
    await pool.close();
    expect(['parseShutdown', 'parseTimeout']).toContain((await outcome).fatal?.key);
    // Neither the running worker nor the idle spare was terminated: each left when asked.
    expect(terminate).not.toHaveBeenCalled();
    expect(terminated).not.toHaveBeenCalled();
  }, 240_000);

  it('a parse past its time limit: its worker stops when asked, not terminated', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    const pool = createParsePool({ workers: 1, timeoutMs: 200, memoryMb: 256 });
    try {
      const first = await pool.run(jobOf(slowSheet), runOf().run);
      expect(first.fatal?.key).toBe('parseTimeout');
    } finally {
      // Resolves once every worker has left: the timed-out one too.
      await pool.close();
    }
    expect(terminate).not.toHaveBeenCalled();
  }, 240_000);
});
