/**
 * Writes `file.br` and `file.gz` beside every text asset of the build, so the server sends
 * them as they are (@fastify/static `preCompressed`) instead of compressing on each request
 * or — as before — not at all. Brotli at its highest quality costs seconds once per build
 * and saves 15–20 % over gzip on every first visit.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const br = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text types worth compressing; images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

export async function precompressDir(dir: string): Promise<number> {
  const jobs: Promise<void>[] = [];
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file) || file.includes('/.vite/')) continue;
    if ((await stat(file)).size < MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const body = await readFile(file);
        const [b, g] = await Promise.all([
          br(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
          gz(body, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${file}.br`, b), writeFile(`${file}.gz`, g)]);
      })(),
    );
  }
  await Promise.all(jobs);
  return jobs.length;
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'console:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const n = await precompressDir(outDir);
      this.info(`precompressed ${n} files (br, gz)`);
    },
  };
}
