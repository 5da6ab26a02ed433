import { describe, expect, it } from 'vitest';
import { routeCatalogue, type AccessedRoute } from '@console/contract';
import { routeIndex, staticRoutes } from './menu.ts';

/**
 * The console's page guard (Shell: a known path the user does not hold is a 403): a page opens
 * exactly when the server's routes for the user hold it. The page walk (e2e/shell/every-page)
 * proves one 403 per role in the browser and leaves the rest of each role's forbidden pages to
 * this rule (issue 37: the walk's time).
 */
const pages = routeCatalogue.filter((r) => r.path.startsWith('/')) as readonly AccessedRoute[];
const staticPaths = new Set(staticRoutes.map((r) => r.path));

describe('routeIndex: which pages a user may open', () => {
  it('opens every page a user holds, and no other page of the catalogue but the static ones', () => {
    // Every other page held: each held one opens, each left out is a 403.
    const held = pages.filter((_, i) => i % 2 === 0);
    const open = routeIndex(held);
    for (const r of pages) {
      const expected = held.includes(r) || staticPaths.has(r.path);
      expect(open.has(r.path), r.path).toBe(expected);
    }
  });

  it('a user holding nothing opens only the static pages', () => {
    expect([...routeIndex([]).keys()].sort()).toEqual([...staticPaths].sort());
  });

  it('an outside link is never a page of the console', () => {
    const link = { name: 'help', path: 'https://example.com/help', title: { zh: '帮助', en: 'Help' } };
    expect(routeIndex([link]).has(link.path)).toBe(false);
  });
});
