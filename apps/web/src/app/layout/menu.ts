/** The menu and route lookup built from the user's accessed routes (spec §2, §6). */
import type { AccessedRoute } from '@console/contract';
import { HOME_PATH } from './tabs/store.ts';

export interface MenuNode {
  route: AccessedRoute;
  children: MenuNode[];
}

/** Always-there routes of the frame (spec §2 static routes), reachable by any logged-in user. */
export const staticRoutes: AccessedRoute[] = [
  { name: 'index', path: HOME_PATH, title: { zh: '首页', en: 'Home' }, icon: 'HomeOutlined' },
  { name: 'log', path: '/log', title: { zh: '前端日志', en: 'Frontend Log' }, hidden: true },
  { name: 'seeMore', path: '/seeMore', title: { zh: '系统公告', en: 'System Announcements' }, hidden: true },
];

export const isExternal = (path: string) => /^https?:\/\//i.test(path);

/** Menu tree in the server's order; hidden routes are dropped (they stay reachable). */
export function buildMenu(routes: readonly AccessedRoute[]): MenuNode[] {
  const visible = routes.filter((r) => !r.hidden);
  const names = new Set(visible.map((r) => r.name));
  const nodes = new Map(visible.map((r) => [r.name, { route: r, children: [] } as MenuNode]));
  const roots: MenuNode[] = [];
  for (const r of visible) {
    const node = nodes.get(r.name)!;
    if (r.parent && names.has(r.parent)) nodes.get(r.parent)!.children.push(node);
    else roots.push(node);
  }
  if (!names.has('index')) roots.unshift({ route: staticRoutes[0], children: [] });
  return roots;
}

/** Every route the user may open, by path (module routes plus the static ones). */
export function routeIndex(routes: readonly AccessedRoute[]): Map<string, AccessedRoute> {
  const byPath = new Map<string, AccessedRoute>();
  for (const r of staticRoutes) byPath.set(r.path, r);
  for (const r of routes) if (r.path && !isExternal(r.path)) byPath.set(r.path, r);
  return byPath;
}

export function flattenMenu(nodes: readonly MenuNode[]): AccessedRoute[] {
  return nodes.flatMap((n) => [n.route, ...flattenMenu(n.children)]);
}

/** Fuzzy match: all query characters in order, in the zh or en title, name or path. Lower = better. */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const s = text.toLowerCase();
  if (!q) return 0;
  const direct = s.indexOf(q);
  if (direct >= 0) return direct;
  let pos = -1;
  let gaps = 0;
  for (const ch of q) {
    const next = s.indexOf(ch, pos + 1);
    if (next < 0) return null;
    if (pos >= 0) gaps += next - pos - 1;
    pos = next;
  }
  return 100 + gaps;
}

export function searchRoutes(query: string, routes: readonly AccessedRoute[]): AccessedRoute[] {
  const scored: { r: AccessedRoute; score: number }[] = [];
  for (const r of routes) {
    if (!r.path) continue;
    const scores = [r.title.zh, r.title.en, r.name, r.path]
      .map((text) => fuzzyScore(query, text))
      .filter((x): x is number => x !== null);
    if (scores.length) scored.push({ r, score: Math.min(...scores) });
  }
  return scored.sort((a, b) => a.score - b.score).map((x) => x.r);
}
