import { items } from '@console/contract';
import { Button, Select, Space, TreeSelect } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ColumnChooser } from '@/components/ColumnChooser.tsx';
import { FilterBar, rangeToDates, usePagedQuery } from '@/components/paged-table';
import { invalidateCall, saveServerSetting, t, useI18n, useServerSettings } from '@/lib';
import { useBrands } from '../api/useBrands.ts';
import { useCategories } from '../api/useCategories.ts';
import { itemsCall } from '../api/useItems.ts';
import { useParts } from '../api/useParts.ts';
import { categoryTree } from './ItemForm.tsx';
import { ItemImportModal } from './ItemImportModal.tsx';
import { ALL_COLUMNS, columnTitle, ItemTable } from './ItemTable.tsx';
import { useRole } from './useRole.ts';

type Filters = Omit<items.ItemListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const FAILED_COLUMNS = ['image', 'jan', 'nameZh', 'customerCode', 'brand', 'category', 'reason', 'updatedAt'];

/**
 * Item List and (with `failedOnly`) the Failed To Pass Item List: every filter, sort and
 * paging on the server. The list's columns are saved per user; the failed list shows the reason.
 */
export function ItemListView({ failedOnly = false }: { failedOnly?: boolean }) {
  const { localized } = useI18n();
  const navigate = useNavigate();
  const role = useRole();
  const [importing, setImporting] = useState(false);
  const fixed: Filters = failedOnly ? { status: 'failed' } : {};
  const paged = usePagedQuery<typeof items.items, Filters>(itemsCall, {
    sort: failedOnly ? 'updatedAt' : 'createdAt',
    filters: fixed,
  });
  const brands = useBrands();
  const parts = useParts();
  const categories = useCategories();
  const settings = useServerSettings();
  // Saved columns are read during render (no flash of every column after a reload); the
  // failed list has its own fixed set (the reason is what it is for).
  const saved = settings.data?.itemColumns;
  const columns: readonly string[] = failedOnly
    ? FAILED_COLUMNS
    : Array.isArray(saved) && saved.length
      ? (saved as string[])
      : settings.isPending
        ? []
        : ALL_COLUMNS;
  const ready = failedOnly || !settings.isPending;
  const visible = role.isCustomer ? columns.filter((c) => c !== 'customerCode') : columns;

  const onSearch = (v: Record<string, any>) => {
    // Search always asks the server again, also when the filters did not change (another
    // user may have reviewed items since: the cached page would be stale).
    void invalidateCall(items.items);
    paged.setFilters({
      ...fixed,
      status: failedOnly ? 'failed' : v.status,
      jan: v.jan?.trim() || undefined,
      name: v.name?.trim() || undefined,
      brandId: v.brandId,
      categoryId: v.categoryId,
      partId: v.partId,
      group: v.group?.trim() || undefined,
      customerId: v.customerId,
      ...rangeToDates(v.range),
    });
  };
  const afterWrite = async () => {
    await invalidateCall(items.items);
    await invalidateCall(items.item);
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FilterBar
        filters={paged.filters}
        i18n="items"
        onSearch={onSearch}
        searchTestId="list-search"
        resetTestId="list-reset"
        extra={
          !failedOnly && (
            <>
              <Button onClick={() => navigate('/item/create')} data-testid="list-create">
                {t('items.create')}
              </Button>
              <Button onClick={() => setImporting(true)} data-testid="list-import">
                {t('items.importing.button')}
              </Button>
              <ColumnChooser
                all={ALL_COLUMNS}
                chosen={columns}
                titleOf={columnTitle}
                label={t('items.columns')}
                disabled={!ready}
                onChoose={(next) => void saveServerSetting('itemColumns', next)}
              />
            </>
          )
        }
      >
        {!failedOnly && (
          <FilterBar.Enum
            name="status"
            width={130}
            values={['pending', 'approved', 'failed']}
            i18n="items.statuses"
            data-testid="list-status"
          />
        )}
        <FilterBar.Text name="jan" width={150} maxLength={13} data-testid="list-jan" />
        <FilterBar.Text name="name" width={160} placeholder={t('items.anyName')} data-testid="list-name" />
        <Form.Item name="brandId" label={t('items.brand')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 140 }}
            options={(brands.data ?? []).map((b) => ({ value: b.id, label: localized(b.name) }))}
            data-testid="list-brand"
          />
        </Form.Item>
        <Form.Item name="categoryId" label={t('items.category')}>
          <TreeSelect
            allowClear
            showSearch
            treeNodeFilterProp="title"
            style={{ width: 180 }}
            treeData={categoryTree(categories.data ?? [], (n) => localized(n.name))}
            data-testid="list-category"
          />
        </Form.Item>
        <Form.Item name="partId" label={t('items.part')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={(parts.data ?? []).map((b) => ({ value: b.id, label: localized(b.name) }))}
            data-testid="list-part"
          />
        </Form.Item>
        <FilterBar.Text name="group" width={120} data-testid="list-group" />
        <FilterBar.Customer data-testid="list-customer" />
        <FilterBar.DateRange data-testid="list-range" />
      </FilterBar>
      <ItemTable
        data-testid="item-table"
        paged={paged}
        visible={visible}
        ready={ready}
        loading={paged.query.isFetching || !ready}
        isOperator={role.isOperator}
        failedList={failedOnly}
        onChanged={afterWrite}
      />
      {!failedOnly && (
        <ItemImportModal open={importing} onClose={() => setImporting(false)} onImported={() => void afterWrite()} />
      )}
    </Space>
  );
}
