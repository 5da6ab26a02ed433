import { Alert, Button, Card, Descriptions, Empty, Space, Table, Tag, Timeline } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { reference } from '@console/contract';
import { formatTime, t, useCall, useI18n } from '@/lib';
import { useOrderDetail } from './api/orders.ts';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { CatalogueStatusTag, TaxEstimateBlock } from '@/components/tax-estimate.tsx';
import { PrintButton } from '@/components/printing/components.tsx';
import { CopyNumber } from '@/components/CopyNumber.tsx';
import { OrderFlagSwitch } from './components/OrderFlagSwitch.tsx';
import { eventLine } from './components/event-line.ts';
import './i18n.ts';
import './pages-i18n.ts';

/** "中国" / "China" rather than the ISO code; a code without a name is shown as it is. */
function countryName(code: string) {
  const key = `orders.countries.${code}`;
  const name = t(key);
  return name === key ? code : name;
}

/** Order detail: every field of spec §3 "Order", items, tracking events, print count and flags. */
export default function OrderDetailPage() {
  const { localized } = useI18n();
  // Codes are shown by their names ("普通订单", not "normal").
  const types = useCall(reference.orderTypes, {});
  const companies = useCall(reference.customsClearanceCompanies, {});
  const nameOf = (list: { code: string; name: { zh: string; en: string } }[] | undefined, code: string | null) => {
    const hit = code ? list?.find((c) => c.code === code) : undefined;
    return hit ? localized(hit.name) : code;
  };
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(params.get('id') ?? 0);
  const q = useOrderDetail(id);
  useTabRecord(q.data?.orderNo);
  const o = q.data;
  if (!id) return <Empty />;
  if (q.isError) return <Empty description={q.error.message} />;
  if (!o) return <Card loading />;
  const yn = (v: boolean) => <Tag color={v ? 'blue' : 'default'}>{v ? t('orders.yes') : t('orders.no')}</Tag>;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="order-detail">
      {o.locked && <Alert type="info" showIcon message={o.locked} />}
      {o.errorReason && <Alert type="error" showIcon message={o.errorReason} />}
      {o.abnormalReason && <Alert type="warning" showIcon message={o.abnormalReason} />}
      <Card
        size="small"
        title={
          <>
            {t('orders.orderNo')}: <CopyNumber value={o.orderNo} />
          </>
        }
        extra={
          <Space>
            <PrintButton
              orders={[o]}
              testId="detail-print"
              onDone={(r) => void (r.kind === 'printed' && q.refetch())}
            />
            <Button
              type="primary"
              disabled={!!o.locked}
              onClick={() => navigate(`/order/update?id=${o.id}`)}
              data-testid="detail-edit"
            >
              {t('orders.edit')}
            </Button>
          </Space>
        }
      >
        <Descriptions size="small" column={3} bordered>
          <Descriptions.Item label={t('orders.customer')}>{o.customerCode}</Descriptions.Item>
          <Descriptions.Item label={t('orders.channel')}>{o.channel}</Descriptions.Item>
          <Descriptions.Item label={t('orders.status')}>{t(`orders.kinds.${o.status}`)}</Descriptions.Item>
          <Descriptions.Item label={t('orders.waybillNo')}>
            <CopyNumber value={o.waybillNo} />
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.splitWaybillNo')}>
            <CopyNumber value={o.splitWaybillNo} />
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.systemNo')}>{o.systemNo}</Descriptions.Item>
          <Descriptions.Item label={t('orders.userRefNo')}>{o.userRefNo}</Descriptions.Item>
          <Descriptions.Item label={t('orders.batchNo')}>{o.batchNo}</Descriptions.Item>
          <Descriptions.Item label={t('orders.boxNo')}>{o.boxNo}</Descriptions.Item>
          <Descriptions.Item label={t('orders.orderType')}>{nameOf(types.data, o.orderType)}</Descriptions.Item>
          <Descriptions.Item label={t('orders.clearanceCompany')}>
            {nameOf(companies.data, o.clearanceCompany)}
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.receiveStatus')}>
            {o.receiveStatus ? t(`orders.receive.${o.receiveStatus}`) : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.recipient')} data-testid="detail-recipient">
            {o.recipient.name}
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.phone')}>{o.recipient.phone}</Descriptions.Item>
          <Descriptions.Item label={t('orders.idCard')}>{o.recipient.idCard}</Descriptions.Item>
          <Descriptions.Item label={t('orders.address')} span={3}>
            {[
              o.recipient.country && countryName(o.recipient.country),
              o.recipient.province,
              o.recipient.city,
              o.recipient.district,
              o.recipient.street,
              o.recipient.address,
            ]
              .filter(Boolean)
              .join(' ')}{' '}
            {o.recipient.postcode}
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.sender')}>{o.sender.name}</Descriptions.Item>
          <Descriptions.Item label={t('orders.senderPhone')}>{o.sender.phone}</Descriptions.Item>
          <Descriptions.Item label={t('orders.senderAddress')}>{o.sender.address}</Descriptions.Item>
          <Descriptions.Item label={t('orders.totalAmount')}>{`${o.totalAmount} ${o.currency}`}</Descriptions.Item>
          <Descriptions.Item label={t('orders.insuredAmount')}>{`${o.insuredAmount} ${o.currency}`}</Descriptions.Item>
          <Descriptions.Item label={t('orders.remark')}>{o.remark}</Descriptions.Item>
          <Descriptions.Item label={t('orders.printCount')}>{o.printCount}</Descriptions.Item>
          <Descriptions.Item label={t('orders.printFlag')}>{yn(o.printFlag)}</Descriptions.Item>
          <Descriptions.Item label={t('orders.intercepted')}>{yn(o.intercepted)}</Descriptions.Item>
          <Descriptions.Item label={t('orders.released')}>{yn(o.released)}</Descriptions.Item>
          <Descriptions.Item label={t('orders.gnsUpdated')}>
            <OrderFlagSwitch id={o.id} flag="gnsUpdated" value={o.gnsUpdated} />
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.pushS')}>
            <OrderFlagSwitch id={o.id} flag="pushS" value={o.pushS} />
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.pushPrice')}>
            <OrderFlagSwitch id={o.id} flag="pushPrice" value={o.pushPrice} />
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.wholeSet')}>
            <OrderFlagSwitch id={o.id} flag="wholeSet" value={o.wholeSet} />
          </Descriptions.Item>
          <Descriptions.Item label={t('orders.createdAt')}>{formatTime(o.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('taxEstimate.tax')} span={3}>
            <TaxEstimateBlock estimate={o.taxEstimate} />
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card
        size="small"
        title={t('orders.items')}
        extra={
          <Link to={`/order/items?id=${o.id}`} data-testid="detail-items">
            {t('orderPages.manageItems')}
          </Link>
        }
      >
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={o.items}
          columns={[
            ...[
              'lineNo',
              'jan',
              'name',
              'brand',
              'spec',
              'quantity',
              'unitPrice',
              'currency',
              'origin',
              'hazardCode',
            ].map((k) => ({
              key: k,
              dataIndex: k,
              title: k === 'lineNo' ? '#' : t(`orders.${k}`),
            })),
            {
              key: 'catalogueStatus',
              title: t('taxEstimate.catalogue'),
              render: (_: unknown, r: (typeof o.items)[number]) => <CatalogueStatusTag status={r.catalogueStatus} />,
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('orders.events')} data-testid="order-events">
        {o.events.length ? (
          <Timeline
            items={o.events.map((e) => ({
              children: eventLine(e),
            }))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('orders.noEvents')} />
        )}
      </Card>
    </Space>
  );
}
