import { orderReviews } from '@console/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Input,
  Modal,
  Space,
  Switch,
  Table,
  type TableColumnsType,
} from 'antd';
import { Form, validateForSubmit } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { useDownloadProgress } from '@/components/download-progress.tsx';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { errorText, formatTime, invalidateCall, t, useI18n, useSession } from '@/lib';
import { completeReview, downloadReview, reviewOrdersCall } from './api/orderReviews.ts';
import { ReviewItemsTable } from './components/ReviewItemsTable.tsx';
import { Findings, ReviewParseTag, ReviewStatusTag } from './components/shared.tsx';
import './i18n.ts';

type OrderRow = orderReviews.ReviewOrderRow;
type Filters = { id: number; flaggedOnly?: boolean };

/**
 * One review (spec §2 orderReview.info): its header, the rows the template refused, its
 * orders with their findings (each opens to its items with theirs); an operator completes a
 * pending review with remarks; the result workbook downloads with progress.
 */
export default function OrderReviewInfoPage() {
  useI18n();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  if (!id) return <Empty />;
  return <ReviewInfo id={id} />;
}

function ReviewInfo({ id }: { id: number }) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { routeNames } = useSession();
  const canComplete = routeNames.has('orderReview.complete');
  const paged = usePagedQuery<typeof reviewOrdersCall, Filters>(reviewOrdersCall, {
    filters: { id },
    limit: 20,
    order: 'asc',
  });
  const review = paged.data?.review;
  useTabRecord(review?.reviewNo);
  const download = useDownloadProgress();
  const [completing, setCompleting] = useState(false);
  const [form] = Form.useForm<{ remarks: string }>();

  if (paged.query.isError && !paged.data) return <Empty description={errorText((paged.query as any).error)} />;
  if (!review) return <Card loading />;

  const complete = async () => {
    // An empty field shows its own message; the rejection is that, not an error.
    const values = await validateForSubmit(form).catch(() => null);
    if (!values) return;
    const { remarks } = values;
    try {
      await completeReview(id, remarks.trim());
      void message.success(t('orderReviews.completed'));
      setCompleting(false);
      await invalidateCall(orderReviews.orderReviewOrders);
      await invalidateCall(orderReviews.orderReviews);
    } catch (e) {
      form.setFields([{ name: 'remarks', errors: [errorText(e)] }]);
    }
  };

  const columns: TableColumnsType<OrderRow> = [
    { key: 'orderNo', title: t('orderReviews.orderNo'), dataIndex: 'orderNo' },
    { key: 'channel', title: t('orderReviews.channel'), dataIndex: 'channel' },
    { key: 'recipient', title: t('orderReviews.recipient'), dataIndex: 'recipientName' },
    { key: 'region', title: t('orderReviews.region'), render: (_, o) => `${o.province} ${o.city}` },
    { key: 'itemCount', title: t('orderReviews.itemCount'), dataIndex: 'itemCount', align: 'right' },
    { key: 'valueCny', title: t('orderReviews.valueCny'), dataIndex: 'valueCny', align: 'right' },
    {
      key: 'findings',
      title: t('orderReviews.findings'),
      render: (_, o) =>
        o.findings.length || !o.findingCount ? (
          <Findings findings={o.findings} />
        ) : (
          `${o.findingCount} (${t('orderReviews.items')})`
        ),
    },
  ];
  const D = Descriptions.Item;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="review-info">
      <Card
        size="small"
        title={`${t('orderReviews.reviewNo')}: ${review.reviewNo}`}
        extra={
          <Space>
            <ReviewStatusTag status={review.status} />
            <ReviewParseTag review={review} />
            {canComplete && review.status === 0 && review.parseState === 'done' && (
              <Button type="primary" onClick={() => setCompleting(true)} data-testid="review-complete">
                {t('orderReviews.complete')}
              </Button>
            )}
            <Button onClick={() => navigate(`/orderReview/item?id=${id}`)}>{t('orderReviews.items')}</Button>
            <Button
              disabled={download.busy}
              onClick={() => void download.run((pid) => downloadReview(id, pid))}
              data-testid="review-download"
            >
              {t('orderReviews.download')}
            </Button>
          </Space>
        }
      >
        <Descriptions size="small" column={3} bordered>
          <D label={t('orderReviews.customer')}>{review.customerCode}</D>
          <D label={t('orderReviews.fileName')}>{review.fileName}</D>
          <D label={t('orderReviews.createdAt')}>
            {formatTime(review.createdAt)} {review.createdBy}
          </D>
          <D label={t('orderReviews.orderCount')}>{review.orderCount}</D>
          <D label={t('orderReviews.itemCount')}>{review.itemCount}</D>
          <D label={t('orderReviews.flaggedOrders')}>{review.flaggedOrders}</D>
          <D label={t('orderReviews.completedAt')}>
            {review.completedAt ? `${formatTime(review.completedAt)} ${review.completedBy ?? ''}` : '-'}
          </D>
          <D label={t('orderReviews.remarks')} span={2}>
            <span data-testid="review-remarks" style={{ whiteSpace: 'pre-wrap' }}>
              {review.remarks ?? '-'}
            </span>
          </D>
        </Descriptions>
        {download.panel}
      </Card>
      {paged.data && paged.data.rowErrors.length > 0 && (
        <Alert
          type="warning"
          showIcon
          message={t('orderReviews.rowErrors')}
          description={
            <Table
              size="small"
              rowKey={(_, i) => String(i)}
              pagination={false}
              dataSource={paged.data.rowErrors}
              columns={[
                { key: 'row', title: t('orderReviews.row'), dataIndex: 'row' },
                { key: 'column', title: t('orderReviews.column'), dataIndex: 'column' },
                { key: 'message', title: t('orderReviews.message'), dataIndex: 'message' },
              ]}
            />
          }
          data-testid="review-row-errors"
        />
      )}
      <Space>
        <Switch
          checked={!!paged.state.filters.flaggedOnly}
          onChange={(v) => paged.setFilters({ id, flaggedOnly: v || undefined })}
          data-testid="review-flagged-only"
        />
        {t('orderReviews.flaggedOnly')}
      </Space>
      <PagedTable<OrderRow>
        rowKey="id"
        size="small"
        paged={paged}
        columns={columns}
        data-testid="review-orders"
        onRow={(o) => ({ 'data-order-no': o.orderNo }) as never}
        expandable={{
          expandedRowRender: (o) => (
            <ReviewItemsTable key={o.id} filters={{ id, orderId: o.id }} showOrder={false} inUrl={false} />
          ),
          rowExpandable: (o) => o.itemCount > 0,
        }}
      />
      <Modal
        open={completing}
        title={t('orderReviews.completeTitle')}
        onCancel={() => setCompleting(false)}
        onOk={() => void complete()}
        okButtonProps={{ 'data-testid': 'review-complete-ok' } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="remarks"
            label={t('orderReviews.remarks')}
            rules={[{ required: true, whitespace: true, message: t('orderReviews.remarksRequired') }]}
          >
            <Input.TextArea rows={4} maxLength={2000} showCount data-testid="review-remarks-input" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
