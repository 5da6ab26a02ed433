import type { FormInstance } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import type { PagedFilters } from './usePagedQuery.ts';

/** The date pairs filter forms show as one `range` picker (`rangeToDates` makes the pair). */
const DATE_PAIRS = [
  ['dateFrom', 'dateTo'],
  ['from', 'to'],
] as const;

/**
 * A list's filters as its filter form holds them: the same names, a date pair as the
 * `range` picker's two days. A page whose form differs (a yes/no select for a boolean)
 * passes its own.
 */
export function filtersToForm(filters: object): Record<string, unknown> {
  const values: Record<string, unknown> = { ...filters };
  for (const [from, to] of DATE_PAIRS) {
    if (!(from in values) && !(to in values)) continue;
    const a = values[from];
    const b = values[to];
    delete values[from];
    delete values[to];
    if (typeof a === 'string' && typeof b === 'string') values.range = [dayjs(a), dayjs(b)];
  }
  return values;
}

/**
 * Fills a list's filter form from the filters in its URL: on a reload or a pasted link, and
 * when back brings earlier filters. Only then: what the user types and has not searched yet
 * stays while they switch tabs (<Activity> re-runs this effect each time the tab is shown),
 * and after 查询 the form already shows what was searched.
 */
export function useFilterForm(
  form: FormInstance,
  filters: PagedFilters | undefined,
  toForm: (filters: Record<string, unknown>) => Record<string, unknown> = filtersToForm,
) {
  const convert = useRef(toForm);
  convert.current = toForm;
  useEffect(() => {
    if (!filters) return;
    const { key, values, filled } = filters;
    if (filled.current === key) return;
    const first = filled.current === null;
    filled.current = key;
    // A clean list on its first show: the form's initial values stand.
    if (first && key === '') return;
    form.resetFields();
    form.setFieldsValue(convert.current(values as Record<string, unknown>));
    // `filters` is a new object each render; its key says when it holds other filters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, filters?.key]);
}

/**
 * `useFilterForm` for a lone search box (`Input.Search`): its text, taken again from the
 * URL's filter when that changes (back, a pasted link), and otherwise the user's.
 */
export function useFilterText(searched: string | undefined) {
  const [text, setText] = useState(searched ?? '');
  const [seen, setSeen] = useState(searched);
  if (seen !== searched) {
    // Adjusting state while rendering (React's pattern for state following a prop): no effect,
    // so <Activity> showing the tab again does not put the searched text over the typed one.
    setSeen(searched);
    setText(searched ?? '');
  }
  return [text, setText] as const;
}
