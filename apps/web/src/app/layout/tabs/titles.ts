/**
 * What a tab is called (issue 28, finding 14): the route's title, with its module's in front
 * when another page has the same title in the user's language ("Create" is three pages in
 * English, "批次列表" two), and the record a page of one record names.
 */
import { routeCatalogue, type AccessedRoute } from '@console/contract';
import { useCallback } from 'react';
import { useI18n } from '@/lib/i18n.ts';
import { useTabs } from './store.ts';

const pathOf = (p: string) => p.split('?')[0]!;

/** Until a page names its record, a tab of one record shows the id from its address. */
function recordOf(path: string, labels: Record<string, string>): string | null {
  if (labels[path]) return labels[path];
  const id = new URLSearchParams(path.split('?')[1] ?? '').get('id');
  return id ? `#${id}` : null;
}

type Localize = (x: { zh: string; en: string }) => string;

/** The page's title, qualified by its module's when the bare title names several pages. */
export function pageTitle(route: Pick<AccessedRoute, 'title' | 'parent'>, localized: Localize): string {
  const own = localized(route.title);
  const twins = routeCatalogue.filter((r) => r.path && localized(r.title) === own).length;
  const parent = route.parent ? routeCatalogue.find((r) => r.name === route.parent) : undefined;
  return twins > 1 && parent ? `${localized(parent.title)} · ${own}` : own;
}

/** A tab's title: its page's, and the record it shows. */
export function tabTitle(
  path: string,
  byPath: Map<string, AccessedRoute>,
  labels: Record<string, string>,
  localized: Localize,
): string {
  const route = byPath.get(pathOf(path));
  if (!route) return path;
  const record = recordOf(path, labels);
  return pageTitle(route, localized) + (record ? ` ${record}` : '');
}

/** `(path) => title` for the tabs in the user's language. */
export function useTabTitle(byPath: Map<string, AccessedRoute>) {
  const { localized } = useI18n();
  const { labels } = useTabs();
  return useCallback((path: string) => tabTitle(path, byPath, labels, localized), [byPath, labels, localized]);
}
