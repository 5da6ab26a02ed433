import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

/**
 * A parse worker is started for every parse (parse-pool.ts), the next one while the last
 * batch commits: what it loads is CPU taken from that commit on every import (issue 29). The
 * database layer and the contract's index (every call's schemas) cost 0.15-0.2 s of each start
 * and the worker uses neither.
 */
describe('batch parse worker', () => {
  it('loads neither Kysely nor the contract index', async () => {
    // Records every module the worker resolves, on its own stderr.
    const hook = `data:text/javascript,${encodeURIComponent(
      `import { registerHooks } from 'node:module';
       registerHooks({ resolve(s, c, next) { const r = next(s, c); console.error('MODULE ' + r.url); return r; } });`,
    )}`;
    const worker = new Worker(new URL('../../src/modules/batches/parse.worker.ts', import.meta.url), {
      execArgv: ['--import', hook],
      stderr: true,
    });
    let stderr = '';
    worker.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Its answer to a job comes once every static import has loaded: a file that is no workbook.
    const answer = await new Promise<{ type: string }>((resolve, reject) => {
      // The worker says 'ready' once loaded (parse-pool.ts counts its stop grace from there).
      worker.on('message', (m: { type: string }) => m.type !== 'ready' && resolve(m));
      worker.once('error', reject);
      worker.postMessage({ file: new Uint8Array([1, 2, 3]), kind: 'import', maxRows: 10, lang: 'en' });
    });
    await worker.terminate();
    const modules = [...stderr.matchAll(/^MODULE (\S+)$/gm)].map((m) => m[1]!);
    expect(answer.type).toBe('fatal');
    // It did load what it needs, through the hook.
    expect(modules.some((m) => m.endsWith('/lib/xlsx-rows.ts'))).toBe(true);
    expect(modules.filter((m) => m.includes('/node_modules/kysely/'))).toEqual([]);
    expect(modules.filter((m) => m.endsWith('/packages/contract/src/index.ts'))).toEqual([]);
  });
});
