import { Empty, Input, Select, Space } from 'antd';
import { useSearchParams } from 'react-router';
import { useFilterText } from '@/components/paged-table';
import { t, useI18n } from '@/lib';
import { LinesTable, useLines } from './components/LinesTable.tsx';
import './i18n.ts';

/** The orders of one storage order (spec §2 storageOrder.item): every line with its order's receive state. */
export default function StorageItemPage() {
  useI18n();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  if (!id) return <Empty />;
  return <Lines id={id} />;
}

function Lines({ id }: { id: number }) {
  const paged = useLines({ id });
  // The result applies at once, so it is what the URL holds; the waybill box is typed first.
  const result = paged.state.filters.result;
  const [code, setCode] = useFilterText(paged.state.filters.code);
  const apply = (r: typeof result, c: string) => paged.setFilters({ id, result: r, code: c.trim() || undefined });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="storage-item-page">
      <Space>
        {t('storageOrders.result')}
        <Select
          allowClear
          style={{ width: 120 }}
          value={result}
          onChange={(v) => apply(v, code)}
          options={(['ok', 'refused'] as const).map((v) => ({ value: v, label: t(`storageOrders.result_${v}`) }))}
          data-testid="storage-lines-result"
        />
        <Input.Search
          allowClear
          placeholder={t('storageOrders.waybill')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onSearch={(v) => apply(result, v)}
          style={{ width: 240 }}
        />
      </Space>
      <LinesTable paged={paged} />
    </Space>
  );
}
