import { type exportNominations } from '@console/contract';
import { App, Button, Popconfirm, Space, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { useDownloadProgress } from '@/components/download-progress.tsx';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { ApiError, errorText, formatTime, hasRoute, t, useI18n, useSession } from '@/lib';
import {
  deleteNomination,
  exportNominationsXlsx,
  nominationsCall,
  refreshNominations,
} from './api/exportNominations.ts';
import './i18n.ts';

type Row = exportNominations.ExportNominationRow;
type Filters = Omit<exportNominations.ExportNominationListRequest, 'offset' | 'limit' | 'order' | 'sort'>;

const COLUMNS = [
  'customerCode',
  'nameJa',
  'nameEn',
  'corporateNumber',
  'addressEn',
  'tel',
  'idMark',
  'receiveEmail',
  'createdAt',
  'updatedAt',
] as const;
const SORTABLE = new Set<string>(['createdAt', 'nameJa', 'nameEn', 'corporateNumber']);

/**
 * Export Nominations (spec §2 exports.list): the caller's nominations with server-side filters,
 * sort and paging; the list (its filters and sort) exports as a workbook with progress; a
 * nomination is deleted after confirming, and a refusal (orders not yet shipped use it) says why.
 */
export default function ExportNominationListPage() {
  useI18n();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof nominationsCall, Filters>(nominationsCall, { sort: 'createdAt' });
  const download = useDownloadProgress();
  const visible = isCustomer ? COLUMNS.filter((c) => c !== 'customerCode') : COLUMNS;

  const onSearch = (v: Record<string, any>) => {
    void refreshNominations();
    paged.setFilters({
      name: v.name?.trim() || undefined,
      corporateNumber: v.corporateNumber?.trim() || undefined,
      customerId: v.customerId,
    });
  };
  const remove = async (r: Row) => {
    try {
      await deleteNomination(r.id);
      void message.success(t('exportNominations.deleted'));
    } catch (e) {
      // In use (409): the server names the orders; say it where it can be read whole.
      if (e instanceof ApiError && e.code === 409) {
        modal.warning({ title: t('exportNominations.cannotDelete'), content: e.message });
      } else void message.error(errorText(e));
    } finally {
      await refreshNominations();
    }
  };
  const exportList = () => {
    const { offset: _o, limit: _l, ...filters } = paged.request as exportNominations.ExportNominationListRequest;
    void download.run((pid) => exportNominationsXlsx(filters, pid));
  };

  const columns: TableColumnsType<Row> = [
    ...visible.map((k) => ({
      key: k,
      dataIndex: k,
      title: t(`exportNominations.${k}`),
      sorter: SORTABLE.has(k),
      render: (_: unknown, r: Row) =>
        k === 'createdAt' || k === 'updatedAt' ? formatTime(r[k]) : (r[k] as React.ReactNode),
    })),
    {
      key: 'actions',
      title: t('exportNominations.actions'),
      fixed: 'right' as const,
      render: (_: unknown, r: Row) => (
        <Space size="small">
          {hasRoute('exports.update') && (
            <Button
              size="small"
              type="link"
              onClick={() => navigate(`/exports/update?id=${r.id}`)}
              data-testid="nomination-edit"
            >
              {t('exportNominations.edit')}
            </Button>
          )}
          {hasRoute('exports.updateReceiveEmail') && (
            <Button
              size="small"
              type="link"
              onClick={() => navigate(`/exports/updateReceiveEmail?id=${r.id}`)}
              data-testid="nomination-email"
            >
              {t('exportNominations.editReceiveEmail')}
            </Button>
          )}
          <Popconfirm
            title={t('exportNominations.deleteConfirm', { name: r.nameEn })}
            onConfirm={() => remove(r)}
            okButtonProps={{ danger: true, 'data-testid': 'nomination-delete-ok' } as never}
          >
            <Button size="small" type="link" danger data-testid="nomination-delete">
              {t('exportNominations.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FilterBar
        filters={paged.filters}
        i18n="exportNominations"
        onSearch={onSearch}
        searchTestId="nomination-search"
        extra={
          <>
            {hasRoute('exports.create') && (
              <Button onClick={() => navigate('/exports/create')} data-testid="nomination-create-button">
                {t('exportNominations.create')}
              </Button>
            )}
            <Button disabled={download.busy} onClick={exportList} data-testid="nomination-export">
              {t('exportNominations.export')}
            </Button>
          </>
        }
      >
        <FilterBar.Text
          name="name"
          width={220}
          maxLength={100}
          placeholder={t('exportNominations.namePlaceholder')}
          data-testid="nomination-filter-name"
        />
        <FilterBar.Text
          name="corporateNumber"
          width={160}
          maxLength={13}
          inputMode="numeric"
          data-testid="nomination-filter-number"
        />
        <FilterBar.Customer width={180} data-testid="nomination-filter-customer" />
      </FilterBar>
      {download.panel}
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="nomination-table"
        onRow={(r) => ({ 'data-nomination': r.nameEn }) as never}
      />
    </Space>
  );
}
