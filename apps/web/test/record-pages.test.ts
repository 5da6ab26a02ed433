/**
 * Issue 36 #22: the search panel offered 修改预约 (subscribeTake.update), a page of one record
 * that needs its id, and it opened empty: a dead end. A page is kept out of the search panel, and
 * shows "open it from its list" without an id, only when it is listed in `recordPages`. So every
 * page that reads its record's id from the address must be listed there: this reads each page's
 * source, as the registry names it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { recordPages } from '../src/app/routes/registry.tsx';

const src = path.join(import.meta.dirname, '..', 'src');

it('every page that reads an id from its address is a record page (kept out of the search panel)', () => {
  const registry = fs.readFileSync(path.join(src, 'app/routes/registry.tsx'), 'utf8');
  const pages = [...registry.matchAll(/'([\w.]+)': \(\) => import\('@\/([^']+)'\)/g)].map(([, route, file]) => ({
    route: route!,
    file: path.join(src, file!),
  }));
  expect(pages.length).toBeGreaterThan(50);
  const readsId = pages
    .filter((p) => /\.get\('id'\)/.test(fs.readFileSync(p.file, 'utf8')))
    .map((p) => p.route)
    .sort();
  const unlisted = readsId.filter((r) => !(r in recordPages));
  expect(unlisted).toEqual([]);
});
