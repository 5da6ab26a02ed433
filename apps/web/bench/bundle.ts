/**
 * Bundle benchmark: gzipped JS a browser downloads for the login route and for the shell
 * with the home page, computed from Vite's build manifest (static-import closures of the
 * entry plus the routes' lazy chunks). Goals (issue 3): login ≤ 200 KB, shell+home ≤ 450 KB.
 * Run after `npm run build -w apps/web`: `npm run bench:bundle -w apps/web`.
 * These are estimates from the files (the server sends the build's brotli copies, smaller
 * still); `bench:console` counts the bytes Chromium actually receives.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;

function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    const c = manifest[k];
    if (!c) throw new Error(`not in manifest: ${k}`);
    seen.add(k);
    for (const i of c.imports ?? []) visit(i);
  };
  keys.forEach(visit);
  return seen;
}

const gz = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

function measure(keys: string[]) {
  const chunks = closure(keys);
  let js = 0;
  let raw = 0;
  const css = new Set<string>();
  for (const k of chunks) {
    const c = manifest[k];
    js += gz(c.file);
    raw += readFileSync(join(dist, c.file)).length;
    for (const f of c.css ?? []) css.add(f);
  }
  let cssGz = 0;
  for (const f of css) cssGz += gz(f);
  return { chunks: chunks.size, jsGzip: js, jsRaw: raw, cssGzip: cssGz };
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entry) throw new Error('no entry chunk in manifest');
const key = (suffix: string) => {
  const k = Object.keys(manifest).find((x) => x.endsWith(suffix));
  if (!k) throw new Error(`no chunk for ${suffix}`);
  return k;
};

const KB = 1024;
const results = {
  login: { ...measure([entry, key('src/app/login/LoginPage.tsx')]), goal: 200 * KB },
  'shell+home': {
    ...measure([entry, key('src/app/layout/ShellRoot.tsx'), key('src/features/home/HomePage.tsx')]),
    goal: 450 * KB,
  },
};

const fmt = (n: number) => `${(n / KB).toFixed(1)} KB`;
let failed = false;
console.log('route        chunks  JS raw      JS gzip     CSS gzip   goal (JS gzip)');
for (const [name, r] of Object.entries(results)) {
  const ok = r.jsGzip <= r.goal;
  failed ||= !ok;
  console.log(
    `${name.padEnd(12)} ${String(r.chunks).padStart(6)}  ${fmt(r.jsRaw).padEnd(10)}  ${fmt(r.jsGzip).padEnd(10)}  ${fmt(r.cssGzip).padEnd(9)}  ≤ ${fmt(r.goal)} ${ok ? 'OK' : 'OVER'}`,
  );
}
mkdirSync(join(root, 'bench/out'), { recursive: true });
writeFileSync(join(root, 'bench/out/bundle.json'), JSON.stringify(results, null, 2));
process.exitCode = failed ? 1 : 0;
