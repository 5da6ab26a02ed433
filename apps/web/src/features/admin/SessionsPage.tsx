import { auth, type CallResponse, roles } from '@console/contract';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { FilterBar, PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatTime, t, useI18n, useSession } from '@/lib';
import { endOneSession, sessionsCall } from './api/admin.ts';
import './i18n.ts';

type Row = CallResponse<typeof auth.sessionList>['list'][number];
type Filters = { keyword?: string };

/** A user agent's browser and major version ("Edge 141"), the rest shown on hover. */
export function browserOf(ua: string | null): string {
  if (!ua) return '-';
  const m = /(Edg|OPR|Firefox|Chrome|Version)\/(\d+)/.exec(ua);
  if (!m) return ua.slice(0, 40);
  const name = { Edg: 'Edge', OPR: 'Opera', Version: 'Safari' }[m[1]!] ?? m[1]!;
  return `${name} ${m[2]}`;
}

/**
 * Sessions (issue 28 #22, route session.manage, operators): every account's live sessions with the
 * browser and address they were opened from and when they were last used, filtered, sorted and
 * paged on the server; one is ended after a confirmation (its browser is told at its next call,
 * 430) and the server audits it. Ending the operator's own or a higher role's is not offered (the
 * server refuses it too).
 */
export default function SessionsPage() {
  useI18n();
  const { message } = App.useApp();
  const { user } = useSession();
  const paged = usePagedQuery<typeof sessionsCall, Filters>(sessionsCall, { sort: 'lastSeenAt' });
  const myRank = Math.max(-1, ...(user?.roles ?? []).map((r) => roles.indexOf(r as Row['role'])));
  const endable = (r: Row) => r.userName !== user?.name && roles.indexOf(r.role) <= myRank;

  const end = async (r: Row) => {
    try {
      await endOneSession(r.id);
      void message.success(t('admin.sessionEnded', { name: r.userName }));
    } catch {
      /* the call's own message is shown (404: ended meanwhile); the list is fresh after it */
    }
  };

  const columns: TableColumnsType<Row> = [
    {
      title: t('admin.userName'),
      key: 'user',
      render: (_, r) => (
        <Space size={4}>
          <span>{r.userName}</span>
          <Typography.Text type="secondary">{r.displayName}</Typography.Text>
          {r.current && <Tag color="blue">{t('admin.thisSession')}</Tag>}
        </Space>
      ),
    },
    { title: t('admin.role'), dataIndex: 'role', render: (v: string) => t(`admin.roleNames.${v}`) },
    { title: t('admin.customer'), dataIndex: 'customerCode', render: (v: string | null) => v ?? '-' },
    {
      title: t('admin.browser'),
      key: 'browser',
      render: (_, r) => (
        <Tooltip title={r.userAgent}>
          <span>{browserOf(r.userAgent)}</span>
        </Tooltip>
      ),
    },
    {
      title: t('admin.browserId'),
      dataIndex: 'uuid',
      render: (v: string | null) => (v ? <Typography.Text code>{v.slice(0, 8)}</Typography.Text> : '-'),
    },
    { title: t('admin.address'), dataIndex: 'ip', render: (v: string | null) => v ?? '-' },
    { title: t('admin.loginAt'), dataIndex: 'createdAt', key: 'createdAt', sorter: true, render: (v) => formatTime(v) },
    {
      title: t('admin.lastSeen'),
      dataIndex: 'lastSeenAt',
      key: 'lastSeenAt',
      sorter: true,
      render: (v) => formatTime(v),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) =>
        endable(r) ? (
          <Popconfirm
            title={t('admin.confirmEndSession', { name: r.userName })}
            okButtonProps={{ danger: true, 'data-testid': 'session-end-ok' } as never}
            onConfirm={() => end(r)}
          >
            <Button size="small" danger data-testid="session-end">
              {t('admin.endSession')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="admin-sessions">
      <FilterBar
        filters={paged.filters}
        i18n="admin"
        onSearch={(v) => paged.setFilters({ keyword: (v.keyword as string | undefined)?.trim() || undefined })}
        searchTestId="session-search"
      >
        <FilterBar.Text
          name="keyword"
          width={320}
          maxLength={64}
          placeholder={t('admin.sessionKeywordHint')}
          data-testid="session-keyword"
        />
      </FilterBar>
      <PagedTable<Row>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="session-table"
        onRow={(r) => ({ 'data-session-uuid': r.uuid ?? '' }) as never}
      />
    </Space>
  );
}
