import { jdAuthorize } from '@console/contract';
import { Alert, App, Button, Popconfirm, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { ApiError, errorText, formatTime, hasRoute, t, useI18n, useSession } from '@/lib';
import { authorizeUrl, deleteJd, exchangeJdCode, jdListCall, refreshJd, renewJd } from './api/jdAuthorize.ts';
import './i18n.ts';

type Row = jdAuthorize.JdAuthorizeRow;
type Filters = Omit<jdAuthorize.JdAuthorizeListRequest, 'offset' | 'limit' | 'order' | 'sort'>;
const SORTABLE = new Set<string>(['createdAt', 'tokenExpiresAt', 'platformName', 'appKey']);

const statusOf = (r: Row): jdAuthorize.JdAuthorizeStatus =>
  !r.authorized ? 'unauthorized' : r.expired ? 'expired' : r.expiringSoon ? 'expiring' : 'valid';
const STATUS_COLOR = { unauthorized: 'default', valid: 'green', expiring: 'orange', expired: 'red' } as const;

/**
 * JD Authorization List (spec §2 order.jdAuthorize): the caller's JD apps with server-side
 * filters, sort and paging, the token's expiry and a warning within 7 days. "Authorize" goes to
 * JD; JD comes back through the server's callback to this page with `#jdCode=…&jdState=…`, which
 * are exchanged for the tokens once, then removed from the address.
 */
export default function JdAuthorizeListPage() {
  useI18n();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { user } = useSession();
  const isCustomer = !!user?.customer;
  const paged = usePagedQuery<typeof jdListCall, Filters>(jdListCall, { sort: 'createdAt' });
  const [busy, setBusy] = useState<number | null>(null);
  const [exchanging, setExchanging] = useState(false);
  const handled = useRef<string | null>(null);

  // Back from JD: the server's callback loads the console with `#jdCode=…&jdState=…` (a fresh
  // page load, so read once on mount; a tab's router location carries no fragment). Exchange the
  // code once (a second render must not send the used state again) and clear the address.
  useEffect(() => {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const jdCode = params.get('jdCode');
    const jdState = params.get('jdState');
    const jdError = params.get('jdError');
    const key = jdCode && jdState ? `${jdCode}:${jdState}` : jdError;
    if (!key || handled.current === key) return;
    handled.current = key;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    if (jdError) {
      modal.warning({
        title: t('jdAuthorize.authorizeFailed'),
        content: t('jdAuthorize.declined', { error: jdError }),
      });
      return;
    }
    setExchanging(true);
    exchangeJdCode(jdCode!, jdState!)
      .then((row) => void message.success(t('jdAuthorize.authorized', { at: formatTime(row.tokenExpiresAt) })))
      .catch((e: unknown) => {
        modal.error({
          title: t('jdAuthorize.authorizeFailed'),
          content:
            e instanceof ApiError && e.code === 422 ? Object.values(e.fieldErrors).flat().join(' ') : errorText(e),
        });
      })
      .finally(async () => {
        setExchanging(false);
        // Twice: on a fresh page load the list's first fetch is already under way, sent before the
        // token was saved, and React Query joins an invalidation to a first fetch still in flight
        // (no data yet to cancel it for); the second invalidation fetches after the exchange.
        await refreshJd();
        await refreshJd();
      });
  }, [message, modal]);

  const onSearch = (v: Record<string, any>) => {
    void refreshJd();
    paged.setFilters({ keyword: v.keyword?.trim() || undefined, status: v.status, customerId: v.customerId });
  };
  const goAuthorize = async (r: Row) => {
    setBusy(r.id);
    try {
      const { url } = await authorizeUrl(r.id);
      window.location.assign(url);
    } catch {
      setBusy(null);
    }
  };
  const renew = async (r: Row) => {
    setBusy(r.id);
    try {
      const row = await renewJd(r.id);
      void message.success(t('jdAuthorize.renewed', { at: formatTime(row.tokenExpiresAt) }));
    } finally {
      setBusy(null);
      await refreshJd();
    }
  };
  const remove = async (r: Row) => {
    try {
      await deleteJd(r.id);
      void message.success(t('jdAuthorize.deleted'));
    } finally {
      await refreshJd();
    }
  };

  const columns: TableColumnsType<Row> = [
    ...(isCustomer ? [] : [{ key: 'ownerCode', dataIndex: 'ownerCode', title: t('jdAuthorize.ownerCode') }]),
    { key: 'platformName', dataIndex: 'platformName', title: t('jdAuthorize.platformName'), sorter: true },
    { key: 'appKey', dataIndex: 'appKey', title: t('jdAuthorize.appKey'), sorter: true },
    { key: 'appSecretMasked', dataIndex: 'appSecretMasked', title: t('jdAuthorize.appSecretMasked') },
    { key: 'customerCode', dataIndex: 'customerCode', title: t('jdAuthorize.customerCode') },
    { key: 'deptNo', dataIndex: 'deptNo', title: t('jdAuthorize.deptNo') },
    { key: 'isvSource', dataIndex: 'isvSource', title: t('jdAuthorize.isvSource') },
    { key: 'platformId', dataIndex: 'platformId', title: t('jdAuthorize.platformId') },
    {
      key: 'status',
      title: t('jdAuthorize.status'),
      render: (_: unknown, r: Row) => {
        const s = statusOf(r);
        const tag = (
          <Tag color={STATUS_COLOR[s]} data-testid="jd-status">
            {t(`jdAuthorize.${s}`)}
          </Tag>
        );
        return s === 'expiring' ? (
          <Tooltip title={t('jdAuthorize.expiringIn', { days: jdAuthorize.JD_EXPIRY_WARNING_DAYS })}>{tag}</Tooltip>
        ) : (
          tag
        );
      },
    },
    {
      key: 'tokenExpiresAt',
      dataIndex: 'tokenExpiresAt',
      title: t('jdAuthorize.tokenExpiresAt'),
      sorter: true,
      render: (_: unknown, r: Row) => <span data-testid="jd-expires">{formatTime(r.tokenExpiresAt)}</span>,
    },
    {
      key: 'authorizedAt',
      dataIndex: 'authorizedAt',
      title: t('jdAuthorize.authorizedAt'),
      render: (_: unknown, r: Row) => formatTime(r.authorizedAt),
    },
    {
      key: 'actions',
      title: t('jdAuthorize.actions'),
      fixed: 'right' as const,
      render: (_: unknown, r: Row) => (
        <Space size="small">
          <Button
            size="small"
            type="link"
            loading={busy === r.id}
            onClick={() => void goAuthorize(r)}
            data-testid="jd-authorize"
          >
            {r.authorized ? t('jdAuthorize.reauthorize') : t('jdAuthorize.authorize')}
          </Button>
          {r.authorized && (
            <Button
              size="small"
              type="link"
              disabled={busy === r.id}
              onClick={() => void renew(r)}
              data-testid="jd-renew"
            >
              {t('jdAuthorize.renew')}
            </Button>
          )}
          {hasRoute('order.jdAuthorize.update') && (
            <Button
              size="small"
              type="link"
              onClick={() => navigate(`/order/jdAuthorize/update?id=${r.id}`)}
              data-testid="jd-edit"
            >
              {t('jdAuthorize.edit')}
            </Button>
          )}
          <Popconfirm
            title={t('jdAuthorize.deleteConfirm', { name: r.platformName || r.appKey })}
            onConfirm={() => remove(r)}
            okButtonProps={{ danger: true, 'data-testid': 'jd-delete-ok' } as never}
          >
            <Button size="small" type="link" danger data-testid="jd-delete">
              {t('jdAuthorize.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const expiring = (paged.query.data?.list ?? []).filter((r) => r.expiringSoon || r.expired);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {exchanging && <Alert type="info" showIcon message={t('jdAuthorize.authorizing')} data-testid="jd-exchanging" />}
      {expiring.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="jd-expiry-warning"
          message={expiring
            .map(
              (r) =>
                `${r.platformName || r.appKey}: ${t(r.expired ? 'jdAuthorize.expired' : 'jdAuthorize.expiring')} (${formatTime(r.tokenExpiresAt)})`,
            )
            .join('；')}
        />
      )}
      <FilterBar
        filters={paged.filters}
        i18n="jdAuthorize"
        onSearch={onSearch}
        searchTestId="jd-search"
        extra={
          hasRoute('order.jdAuthorize.create') && (
            <Button onClick={() => navigate('/order/jdAuthorize/create')} data-testid="jd-create-button">
              {t('jdAuthorize.create')}
            </Button>
          )
        }
      >
        <FilterBar.Text
          name="keyword"
          width={240}
          maxLength={100}
          placeholder={t('jdAuthorize.keywordPlaceholder')}
          data-testid="jd-filter-keyword"
        />
        <FilterBar.Enum
          name="status"
          width={140}
          values={jdAuthorize.jdAuthorizeStatus.options}
          i18n="jdAuthorize"
          data-testid="jd-filter-status"
        />
        <FilterBar.Customer width={180} />
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns.map((c) => ({ ...c, sorter: c.key ? SORTABLE.has(String(c.key)) : false }))}
        scroll={{ x: 'max-content' }}
        data-testid="jd-table"
        onRow={(r) => ({ 'data-jd': r.appKey }) as never}
      />
    </Space>
  );
}
