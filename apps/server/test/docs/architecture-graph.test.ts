import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 40 item 3: ARCHITECTURE.md's module graph is the code's. The graph is read from the
 * modules' own imports (every `../<module>/` specifier of a file under src/modules/<name>/, a type
 * import too), and the document's mermaid block must list the same modules and the same edges:
 * a module added, or an import from one module into another, fails here until the document says
 * so (the message prints the block to paste). The lint (dependency-cruiser, `npm run lint:graph`)
 * keeps the graph free of circles; this keeps the page true.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const modulesDir = path.join(root, 'apps/server/src/modules');
const architecture = fs.readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');

function codeGraph() {
  const modules = fs
    .readdirSync(modulesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const known = new Set(modules);
  const edges = new Set<string>();
  for (const m of modules) {
    for (const file of fs.readdirSync(path.join(modulesDir, m), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
      const text = fs.readFileSync(path.join(modulesDir, m, file), 'utf8');
      // `from '../x/…'`, `import '../x/…'` and `import('../x/…')`: a module's files sit directly in its folder.
      for (const [, to] of text.matchAll(/(?:from|import)\s*\(?\s*['"]\.\.\/([a-z0-9-]+)\//g)) {
        if (to !== m && known.has(to!)) edges.add(`${m} --> ${to}`);
      }
    }
  }
  return { modules, edges: [...edges].sort() };
}

/** The mermaid block under "## Module graph": its lone node lines and its `a --> b` lines. */
function documentGraph() {
  const section = architecture.slice(architecture.indexOf('## Module graph'));
  const block = /```mermaid\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const lines = block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^(graph|flowchart)\b/.test(l) && !l.startsWith('%%'));
  const edges = lines.filter((l) => l.includes('-->')).map((l) => l.replace(/\s+/g, ' '));
  const modules = new Set(lines.flatMap((l) => l.split('-->').map((n) => n.trim())));
  return { modules: [...modules].sort(), edges: edges.sort() };
}

function pasteable(g: ReturnType<typeof codeGraph>) {
  const linked = new Set(g.edges.flatMap((e) => e.split(' --> ')));
  const lone = g.modules.filter((m) => !linked.has(m));
  return ['```mermaid', 'graph LR', ...lone.map((m) => `  ${m}`), ...g.edges.map((e) => `  ${e}`), '```'].join('\n');
}

describe('ARCHITECTURE.md: the module graph', () => {
  const code = codeGraph();
  const doc = documentGraph();

  it('reads a graph from the code (the reader itself works)', () => {
    expect(code.modules.length).toBeGreaterThan(20);
    expect(code.edges).toContain('batches --> orders');
  });

  it('lists every server module and every import between two of them, as the code has them', () => {
    const hint = `ARCHITECTURE.md's module graph differs from the code; the code's graph:\n${pasteable(code)}\n`;
    expect(doc.modules, hint).toEqual(code.modules);
    expect(doc.edges, hint).toEqual(code.edges);
  });

  it('has no circle between two modules', () => {
    const out = new Map<string, string[]>();
    for (const e of code.edges) {
      const [a, b] = e.split(' --> ') as [string, string];
      out.set(a, [...(out.get(a) ?? []), b]);
    }
    const state = new Map<string, 'open' | 'done'>();
    const circle: string[] = [];
    const visit = (m: string, trail: string[]): boolean => {
      if (state.get(m) === 'done') return false;
      if (state.get(m) === 'open') return circle.push(...trail, m) > 0;
      state.set(m, 'open');
      for (const n of out.get(m) ?? []) if (visit(n, [...trail, m])) return true;
      state.set(m, 'done');
      return false;
    };
    for (const m of code.modules) visit(m, []);
    expect(circle).toEqual([]);
  });
});
