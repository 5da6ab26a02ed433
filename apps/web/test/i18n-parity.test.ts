/**
 * Both languages say everything (issue 30, item 6): every table the console registers is
 * loaded, and the test fails on a key one language lacks, on a placeholder one language
 * lacks, and on a literal `t('…')` key in the code that no table defines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageKeys, setLocale, t } from '../src/lib/i18n.ts';

const src = join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}
const files = sources(src);
/** The modules that register a table: found by what they call, so a new one is loaded too. */
const tables = files.filter((f) => /\bregisterMessages\(/.test(readFileSync(f, 'utf8')) && !f.endsWith('lib/i18n.ts'));

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n parity (zh-chs and en)', async () => {
  for (const f of tables) await import(/* @vite-ignore */ f);

  it('loads every table', () => {
    expect(tables.length).toBeGreaterThan(20);
    expect(messageKeys('en').length).toBeGreaterThan(1000);
  });

  it('every key is in both languages', () => {
    const zh = new Set(messageKeys('zh-chs'));
    const en = new Set(messageKeys('en'));
    expect({ onlyZh: [...zh].filter((k) => !en.has(k)), onlyEn: [...en].filter((k) => !zh.has(k)) }).toEqual({
      onlyZh: [],
      onlyEn: [],
    });
  });

  it('both languages take the same placeholders', () => {
    const differ: string[] = [];
    for (const key of messageKeys('en')) {
      setLocale('en');
      const en = placeholders(t(key));
      setLocale('zh-chs');
      const zh = placeholders(t(key));
      if (en.join() !== zh.join()) differ.push(`${key}: en {${en.join()}} zh {${zh.join()}}`);
    }
    setLocale('zh-chs');
    expect(differ).toEqual([]);
  });

  it('every literal key the code translates is defined', () => {
    const defined = new Set(messageKeys('en'));
    const missing: string[] = [];
    for (const f of files) {
      // Comments may show a key as an example.
      const code = readFileSync(f, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const m of code.matchAll(/\bt\(\s*'([^'\n]+)'/g)) {
        if (!defined.has(m[1]!)) missing.push(`${f.slice(src.length + 1)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every filter bar's labels and buttons are defined: `<i18n>.<name>` of each item without a label", () => {
    // FilterBar builds these keys itself (components/paged-table/FilterBar.tsx), so the literal-key
    // check above cannot see them: the API keys page once showed "dev.keyword".
    const defined = new Set(messageKeys('en'));
    const missing: string[] = [];
    let bars = 0;
    for (const f of files) {
      const code = readFileSync(f, 'utf8');
      for (const bar of code.matchAll(/<FilterBar\b[^>]*?\bi18n="([\w.]+)"[\s\S]*?<\/FilterBar>/g)) {
        bars++;
        const prefix = bar[1]!;
        const keys = ['search', 'reset'];
        for (const item of bar[0].matchAll(/<FilterBar\.\w+\b([^>]*?)\/?>/g)) {
          const name = /\bname="([\w.]+)"/.exec(item[1]!)?.[1];
          if (name && !/\blabel=/.test(item[1]!)) keys.push(name);
        }
        for (const k of keys)
          if (!defined.has(`${prefix}.${k}`)) missing.push(`${f.slice(src.length + 1)}: ${prefix}.${k}`);
      }
    }
    expect(bars).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
