import type { items } from '@console/contract';
import { useI18n } from '@/lib';
import { useBrands } from '../api/useBrands.ts';
import { useCategories } from '../api/useCategories.ts';
import { useExportCategories } from '../api/useExportCategories.ts';
import { useParts } from '../api/useParts.ts';
import { useTaxes } from '../api/useTaxes.ts';
import { fieldLabel, valueText } from './shared.tsx';

type Change = { field: string; before: unknown; after: unknown };

function flatten(nodes: items.CategoryNode[], into = new Map<number, items.CategoryNode>()) {
  for (const n of nodes) {
    into.set(n.id, n);
    flatten(n.children, into);
  }
  return into;
}

/** Before → after of each changed field, ids and codes shown by their names (a part "Body", not 3). */
export function Changes({ changes }: { changes: Change[] }) {
  const { localized } = useI18n();
  const parts = useParts().data;
  const brands = useBrands().data;
  const cats = flatten(useCategories().data ?? []);
  const exp = useExportCategories().data;
  const taxes = useTaxes().data;
  const show = (field: string, v: unknown) => {
    const hit = (() => {
      if (v === null || v === undefined) return undefined;
      if (field === 'partId') return parts?.find((p) => p.id === v)?.name;
      if (field === 'brandId') return brands?.find((p) => p.id === v)?.name;
      if (field === 'categoryId') return cats.get(Number(v))?.name;
      if (field === 'exportCategory') return exp?.find((p) => p.code === v)?.name;
      if (field === 'taxCode') return taxes?.find((p) => p.code === v)?.name;
      return undefined;
    })();
    return hit ? localized(hit) : valueText(v);
  };
  return (
    <div data-testid="changes">
      {changes.map((c) => (
        <div key={c.field} data-testid={`change-${c.field}`}>
          <b>{fieldLabel(c.field)}</b>:{' '}
          <span style={{ textDecoration: 'line-through', color: 'var(--ant-color-text-description)' }}>
            {show(c.field, c.before)}
          </span>
          {' → '}
          <span className="change-after">{show(c.field, c.after)}</span>
        </div>
      ))}
    </div>
  );
}
