import type { ApiLanguage } from '@console/contract';
import { translate } from '../../lib/messages.ts';
import { chinaTime, yesCell } from '../../lib/screen-values.ts';
import type { WorkbookJob } from '../../lib/workbook-job.ts';
import type { WorkbookRow, WorkbookSheet } from '../../lib/workbook-writer.ts';
import { presentOrderRow } from './orders.presenter.ts';
import type { OrderListRow } from './orders.list.repository.ts';

/**
 * The order list's export (`order/downloadOrderExcel`): its sheet, and each list row as the
 * cells the list shows (names and phones masked). The rows are read and turned into cells
 * in the workbook worker, which imports this module.
 */
function sheet(lang: ApiLanguage): WorkbookSheet {
  const zh = lang !== 'en';
  return {
    name: zh ? '订单' : 'Orders',
    boldHeader: true,
    columns: [
      { header: zh ? '订单号' : 'Order number', width: 18 },
      { header: zh ? '运单号' : 'Waybill number', width: 18 },
      { header: zh ? '渠道' : 'Channel', width: 8 },
      { header: zh ? '客户' : 'Customer', width: 10 },
      { header: zh ? '批次号' : 'Batch number', width: 16 },
      { header: zh ? '状态' : 'Status', width: 10 },
      { header: zh ? '收件人' : 'Recipient', width: 10 },
      { header: zh ? '电话' : 'Phone', width: 14 },
      { header: zh ? '省份' : 'Province', width: 10 },
      { header: zh ? '城市' : 'City', width: 10 },
      { header: zh ? '打印次数' : 'Print count', width: 8 },
      { header: zh ? '已拦截' : 'Intercepted', width: 8 },
      { header: zh ? '创建时间 (UTC+8)' : 'Created (UTC+8)', width: 20 },
      { header: zh ? '预估税费 (CNY)' : 'Tax estimate (CNY)', width: 14 },
    ],
  };
}

/** The tax estimate's column (0-based): a number Excel can add up, shown with 2 decimals. */
const TAX_COLUMN = 13;

/**
 * One list row → its cells (run in the worker). The tax estimate is the one stored when the
 * order was made or last changed (the order detail shows it as the catalogue stands now).
 */
export function orderExportRow(r: OrderListRow & { tax_estimate?: string | null }, lang: ApiLanguage): WorkbookRow {
  const p = presentOrderRow(r, lang);
  const tax = r.tax_estimate ? Number(r.tax_estimate) : null;
  const values = [
    p.orderNo,
    p.waybillNo,
    p.channel,
    p.customerCode,
    p.batchNo,
    translate(lang, `status.${p.status}`),
    p.recipientName,
    p.recipientPhone,
    p.recipientProvince,
    p.recipientCity,
    p.printCount,
    yesCell(p.intercepted, lang),
    chinaTime(p.createdAt),
    tax,
  ];
  return tax === null ? values : { values, styles: { [TAX_COLUMN]: { numFmt: '0.00' } } };
}

/** The export job of a compiled list query (`OrdersRepository.exportQuery`). */
export function orderExportJob(query: WorkbookJob['query'], lang: ApiLanguage): WorkbookJob {
  return {
    sheet: sheet(lang),
    query,
    mapper: { kind: 'orders', arg: lang },
  };
}
