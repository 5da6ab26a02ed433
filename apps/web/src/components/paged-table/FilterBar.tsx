import { Button, DatePicker, Input, Select, Space, type FormProps, type InputProps, type SelectProps } from 'antd';
import { Form } from '../form.tsx';
import { createContext, useContext } from 'react';
import { t, useSession } from '@/lib';
import { CustomerSelect } from '../CustomerSelect.tsx';
import { useFilterForm } from './useFilterForm.ts';
import type { PagedFilters } from './usePagedQuery.ts';

type RangePickerProps = React.ComponentProps<typeof DatePicker.RangePicker>;
type FilterValues = Record<string, any>;

// The module's i18n prefix, so the items inside a bar find their labels without each page
// spelling out `t('<module>.customer')` again.
const PrefixContext = createContext('');

export type FilterBarProps = Omit<FormProps, 'layout' | 'onFinish' | 'children'> & {
  /** The module's i18n prefix: Search and Reset read `<i18n>.search` / `<i18n>.reset`. */
  i18n: string;
  /** Search with the form's values; Reset calls it with `{}` after clearing the form. */
  onSearch: (values: FilterValues) => void;
  /** The list's filters from its URL (`paged.filters`): the form is filled from them (`useFilterForm`). */
  filters?: PagedFilters;
  /** How those filters show in this form, when not by the same names (see `filtersToForm`). */
  toForm?: (filters: FilterValues) => FilterValues;
  searchTestId?: string;
  resetTestId?: string;
  /** Buttons after Reset (Create, Export, a column chooser…). */
  extra?: React.ReactNode;
  /** Let the buttons wrap onto a second line (a page with many of them). */
  wrapButtons?: boolean;
  children?: React.ReactNode;
};

/**
 * The inline filter form above a `PagedTable`. Reset sends `{}` rather than the cleared form's
 * values so every page's "no filter" request is the same empty one, whatever fields it has.
 */
export function FilterBar({
  i18n,
  onSearch,
  filters,
  toForm,
  searchTestId,
  resetTestId,
  extra,
  wrapButtons,
  children,
  form,
  style = { rowGap: 8 },
  ...formProps
}: FilterBarProps) {
  const [own] = Form.useForm(form);
  useFilterForm(own, filters, toForm);
  return (
    <PrefixContext.Provider value={i18n}>
      <Form {...formProps} form={own} layout="inline" onFinish={onSearch} style={style}>
        {children}
        <Space wrap={wrapButtons}>
          <Button type="primary" htmlType="submit" data-testid={searchTestId}>
            {t(`${i18n}.search`)}
          </Button>
          <Button onClick={() => (own.resetFields(), onSearch({}))} data-testid={resetTestId}>
            {t(`${i18n}.reset`)}
          </Button>
          {extra}
        </Space>
      </Form>
    </PrefixContext.Provider>
  );
}

/** The item's label: given, or `<i18n>.<key>` of the enclosing bar (pages name fields after their keys). */
function useLabel(key: string, label: string | undefined) {
  const prefix = useContext(PrefixContext);
  return label ?? t(`${prefix}.${key}`);
}

type ItemProps = { name: string; label?: string };

/** `FilterBar.Text`: a clearable text filter; the page trims what it sends. */
function TextFilter({ name, label, width, ...input }: ItemProps & InputProps & { width?: number }) {
  return (
    <Form.Item name={name} label={useLabel(name, label)}>
      <Input allowClear style={width === undefined ? undefined : { width }} {...input} />
    </Form.Item>
  );
}

/** `FilterBar.Enum`: an `EnumSelect` filter. */
function EnumFilter<V extends string | number>({ name, label, ...select }: ItemProps & EnumSelectProps<V>) {
  return (
    <Form.Item name={name} label={useLabel(name, label)}>
      <EnumSelect {...select} />
    </Form.Item>
  );
}

/**
 * `FilterBar.Customer`: the `customerId` filter. Customers only ever see their own records (the
 * server scopes them), so for them the filter would have one choice: it is not shown at all.
 */
function CustomerFilter({
  label,
  width = 160,
  'data-testid': testId,
}: {
  label?: string;
  width?: number;
  'data-testid'?: string;
}) {
  const text = useLabel('customer', label);
  const { user } = useSession();
  if (user?.customer) return null;
  return (
    <Form.Item name="customerId" label={text}>
      <CustomerSelect allowClear style={{ width }} data-testid={testId} />
    </Form.Item>
  );
}

/** `FilterBar.DateRange`: the `range` date filter; `rangeToDates` turns its value into the request's dates. */
function DateRangeFilter({ label, ...picker }: RangePickerProps & { label?: string }) {
  return (
    <Form.Item name="range" label={useLabel('dateRange', label)}>
      <DatePicker.RangePicker {...picker} />
    </Form.Item>
  );
}

// Statics, not separate exports: they read the bar's i18n prefix and mean nothing outside one.
FilterBar.Text = TextFilter;
FilterBar.Enum = EnumFilter;
FilterBar.Customer = CustomerFilter;
FilterBar.DateRange = DateRangeFilter;

export type EnumSelectProps<V extends string | number> = Omit<SelectProps, 'options'> & {
  values: readonly V[];
  /** Each option reads `<i18n>.<value>`, e.g. `pickups.statuses`. */
  i18n: string;
  width?: number;
};

/** A clearable select over a fixed list of values (statuses, kinds), labelled through i18n. */
export function EnumSelect<V extends string | number>({ values, i18n, width, style, ...props }: EnumSelectProps<V>) {
  return (
    <Select
      allowClear
      style={width === undefined ? style : { width, ...style }}
      options={values.map((v) => ({ value: v, label: t(`${i18n}.${v}`) }))}
      {...props}
    />
  );
}
