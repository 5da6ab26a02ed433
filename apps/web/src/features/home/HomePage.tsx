/** Home (index): what a customer wants first — order counts, the last 30 days, unread notices, quick links. */
import type { RouteName } from '@console/contract';
import { Card, Col, Empty, List, Row, Skeleton, Statistic, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { usePermission } from '@/components/Permission.tsx';
import { formatDate, useI18n, useSession } from '@/lib';
import { useMessage } from './api/message.ts';
import { useOrderStats } from './api/orderStats.ts';
import { DailyChart } from './components/DailyChart.tsx';
import './i18n.ts';

const statuses = ['created', 'printed', 'received', 'shipped', 'released', 'cancelled'] as const;
const quickLinks: RouteName[] = [
  'order.createImport',
  'order.list',
  'order.batchList',
  'item.list',
  'order.search',
  'bill',
];

function QuickLink({ name }: { name: RouteName }) {
  const { localized } = useI18n();
  const { routes } = useSession();
  const allowed = usePermission(name);
  const route = routes.find((r) => r.name === name);
  if (!allowed || !route?.path) return null;
  return (
    <Link to={route.path} className="quick-link" data-route={name}>
      {localized(route.title)}
    </Link>
  );
}

export default function HomePage() {
  const { t, localized } = useI18n();
  const { user } = useSession();
  const stats = useOrderStats();
  const message = useMessage();
  const total = stats.data?.last30Days.reduce((s, d) => s + d.count, 0) ?? 0;
  const unread = message.data?.latest.filter((n) => !n.read) ?? [];

  return (
    <div className="home" data-testid="home">
      <Typography.Title level={4}>
        {t('home.welcome', { name: user?.displayName || user?.name || '' })}
      </Typography.Title>
      {user?.customer && (
        <Typography.Paragraph type="secondary">
          {t('home.customer', { code: user.customer.code, name: user.customer.name })}
        </Typography.Paragraph>
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card title={t('home.byStatus')}>
            {stats.isPending ? (
              <Skeleton active />
            ) : (
              <Row gutter={[16, 16]} data-testid="status-counts">
                {statuses.map((s) => (
                  <Col key={s} xs={12} md={8}>
                    <Statistic title={t(`home.status.${s}`)} value={stats.data?.byStatus[s] ?? 0} data-status={s} />
                  </Col>
                ))}
                <Col xs={12} md={8}>
                  <Statistic title={t('home.errors')} value={stats.data?.errors ?? 0} />
                </Col>
                <Col xs={12} md={8}>
                  <Statistic title={t('home.abnormal')} value={stats.data?.abnormal ?? 0} />
                </Col>
              </Row>
            )}
          </Card>
          <Card title={t('home.last30')} extra={t('home.total', { count: total })} className="home__chart">
            {stats.isPending ? <Skeleton active /> : <DailyChart days={stats.data?.last30Days ?? []} />}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card
            title={t('home.notices')}
            extra={<Link to="/seeMore">{t('home.seeMore')}</Link>}
            data-testid="home-notices"
          >
            {message.data && (
              <Typography.Paragraph type="secondary">
                {t('home.unreadCount', { count: message.data.unread })}
              </Typography.Paragraph>
            )}
            {message.isPending ? (
              <Skeleton active />
            ) : unread.length === 0 ? (
              <Empty description={t('home.noNotices')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <List
                size="small"
                dataSource={unread}
                renderItem={(n) => (
                  <List.Item>
                    <Link to={`/seeMore?id=${n.id}`}>{localized(n.title)}</Link>
                    {n.mustAgree && <Tag color="orange">!</Tag>}
                    <Typography.Text type="secondary">{formatDate(n.publishedAt)}</Typography.Text>
                  </List.Item>
                )}
              />
            )}
          </Card>
          <Card title={t('home.quickLinks')} className="home__links">
            <div className="quick-links">
              {quickLinks.map((n) => (
                <QuickLink key={n} name={n} />
              ))}
            </div>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
