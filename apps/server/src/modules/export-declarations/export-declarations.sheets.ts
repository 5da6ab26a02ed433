import type { ApiLanguage } from '@console/contract';
import type { WorkbookJob } from '../../lib/workbook-job.ts';
import type { WorkbookRow } from '../../lib/workbook-writer.ts';
import type { DeclarationRecord, DeclarationsRepository } from './export-declarations.repository.ts';

/**
 * The declaration workbooks. `download` (by order number) and `download2` (by waybill number)
 * are also the templates of `updatebatch` and `updatebatch2`: columns A–C are the key, the product
 * name and the amount the upload reads back, the rest is context the upload ignores. So a user
 * downloads, fills B and C, and uploads the same file.
 */
export type Layout = 'orderNo' | 'waybillNo';

const head = (lang: ApiLanguage, zh: string, en: string) => (lang === 'en' ? en : zh);

export function declarationsJob(rows: DeclarationRecord[], layout: Layout, lang: ApiLanguage): WorkbookJob {
  const h = (zh: string, en: string) => head(lang, zh, en);
  const key =
    layout === 'orderNo'
      ? [h('订单号', 'Order No'), h('运单号', 'Waybill No')]
      : [h('运单号', 'Waybill No'), h('订单号', 'Order No')];
  return {
    sheet: {
      name: h('出口申报', 'Export declarations'),
      boldHeader: true,
      frozenHeader: true,
      columns: [
        { header: key[0], width: 22 },
        { header: h('品名', 'Product name'), width: 30 },
        { header: h('金额(JPY)', 'Amount (JPY)'), width: 14 },
        { header: key[1], width: 22 },
        { header: h('货值(JPY)', 'Goods value (JPY)'), width: 16 },
        { header: h('批次号', 'Batch No'), width: 18 },
        { header: h('出口抬头', 'Exporter'), width: 28 },
        { header: h('法人番号', 'Corporate number'), width: 16 },
      ],
    },
    rows: rows.map((r): WorkbookRow => {
      const a = layout === 'orderNo' ? [r.order_no, r.waybill_no] : [r.waybill_no, r.order_no];
      return [
        a[0] ?? null,
        r.product_name,
        r.amount_jpy === null ? null : String(r.amount_jpy),
        a[1] ?? null,
        String(r.total_amount),
        r.batch_no,
        r.name_en,
        r.corporate_number,
      ];
    }),
  };
}

/**
 * The broker's sheet for NACCS (export declaration, procedure MDA): one row per order line,
 * grouped by declaration (order), with the exporter of record and the consignee repeated so
 * every row stands on its own when keyed.
 */
export async function declareAtCustomsJob(
  repo: DeclarationsRepository,
  rows: DeclarationRecord[],
  lang: ApiLanguage,
): Promise<WorkbookJob> {
  const h = (zh: string, en: string) => head(lang, zh, en);
  const declared = rows.filter((r) => r.amount_jpy !== null);
  const ids = declared.map((r) => r.order_id);
  const lines = await repo.lines(ids);
  const recipients = new Map((await repo.recipientOf(ids)).map((r) => [r.id, r]));
  const byOrder = new Map<number, typeof lines>();
  for (const l of lines) byOrder.set(l.order_id, [...(byOrder.get(l.order_id) ?? []), l]);
  const out: WorkbookRow[] = [];
  for (const d of declared) {
    const rc = recipients.get(d.order_id);
    const consignee = rc
      ? `${rc.recipient_name}, ${[rc.recipient_province, rc.recipient_city, rc.recipient_district, rc.recipient_address].join(' ')}`
      : null;
    for (const l of byOrder.get(d.order_id) ?? []) {
      const value = l.currency === 'JPY' ? String(l.unit_price * l.quantity) : null;
      const weightKg = l.net_weight_g ? ((l.net_weight_g * l.quantity) / 1000).toFixed(3) : null;
      out.push([
        d.order_no,
        d.waybill_no,
        d.product_name,
        String(d.amount_jpy),
        d.name_en,
        d.address_en,
        d.corporate_number,
        consignee,
        l.line_no,
        l.name,
        l.export_category ? `${l.export_category}${l.category_en ? ` ${l.category_en}` : ''}` : null,
        l.quantity,
        'PCE',
        value,
        l.origin ?? 'JP',
        weightKg,
      ]);
    }
  }
  return {
    sheet: {
      name: 'MDA',
      boldHeader: true,
      frozenHeader: true,
      columns: [
        { header: h('申报单(订单号)', 'Declaration (order No)'), width: 20 },
        { header: h('运单号', 'Waybill No'), width: 20 },
        { header: h('申报品名', 'Declared product'), width: 24 },
        { header: h('申报金额(JPY)', 'Declared amount (JPY)'), width: 16 },
        { header: h('出口者', 'Exporter'), width: 28 },
        { header: h('出口者地址', 'Exporter address'), width: 36 },
        { header: h('法人番号', 'Corporate number'), width: 16 },
        { header: h('收货人', 'Consignee'), width: 36 },
        { header: h('行号', 'Line'), width: 6 },
        { header: h('品名', 'Description'), width: 30 },
        { header: h('出口分类', 'Export category'), width: 20 },
        { header: h('数量', 'Quantity'), width: 8 },
        { header: h('单位', 'Unit'), width: 6 },
        { header: h('价值(JPY)', 'Value (JPY)'), width: 14 },
        { header: h('原产地', 'Origin'), width: 8 },
        { header: h('毛重(kg)', 'Gross weight (kg)'), width: 14 },
      ],
    },
    rows: out,
  };
}

/** Rows of an upload: key, product name, amount (columns A–C); a header row without digits is skipped. */
export function declarationRowsOfSheet(rows: { row: number; cells: string[] }[]) {
  const out: { row: number; key: string; productName: string; amountJpy: string }[] = [];
  for (const r of rows) {
    const [key = '', name = '', amount = ''] = r.cells.map((c) => (c ?? '').trim());
    if (!key && !name && !amount) continue;
    if (r.row === rows[0]!.row && !/\d/.test(key)) continue;
    out.push({ row: r.row, key, productName: name, amountJpy: amount });
  }
  return out;
}
