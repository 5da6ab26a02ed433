/**
 * The customer picker ("code name", searchable) that agents and operators use on every page that
 * acts for or filters by a customer. One component instead of a copy per page, and one query: each
 * instance asks `reference.customers` through react-query, so every picker on screen shares the
 * same cached answer. Works as a controlled input inside `Form.Item` (value/onChange pass through);
 * callers add allowClear, style, placeholder, data-testid and the like. `enabled: false` keeps it
 * from fetching (e.g. a modal that is closed, or before the session is known).
 */
import { reference } from '@console/contract';
import { Select, type SelectProps } from 'antd';
import { t, useCall } from '@/lib';

export function CustomerSelect({ enabled = true, ...props }: Omit<SelectProps, 'options'> & { enabled?: boolean }) {
  const customers = useCall(reference.customers, {}, { enabled });
  return (
    <Select
      showSearch
      optionFilterProp="label"
      // Filters keep the picker narrow; the list is as wide as the names need, not cut at 160 px.
      popupMatchSelectWidth={false}
      options={(customers.data ?? []).map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))}
      loading={customers.isLoading}
      // Its name for screen readers where no form label points at it (WCAG 4.1.2); a caller's wins.
      aria-label={t('common.customer')}
      {...props}
    />
  );
}
