import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import { kg, type MdaOrder } from './mda.data.ts';
import { forgetLayouts, writePdf } from '../../lib/pdf-file.ts';

/**
 * The PD PDF (issue 15): a commercial invoice and a packing list in English and Japanese, one
 * document per order or one consolidated per batch. Pure drawing from plain records, run in a
 * worker of lib/workbook-job.ts (`renderFile`) and in the benchmark as it is. Text is the
 * label font (Noto Sans CJK, `fonts-noto-cjk`), its Japanese face, embedded as a subset.
 */
export interface PdDocument {
  /** Invoice number: the order number, or the batch number for a consolidated one. */
  number: string;
  consolidated: boolean;
  orders: MdaOrder[];
}
export interface PdRender {
  documents: PdDocument[];
  /** The invoice date (YYYY-MM-DD, UTC+8). */
  date: string;
  fontDir: string;
}

const A4 = { width: 595.28, height: 841.89 };
const M = 36;
const ROW = 13;
const BOTTOM = A4.height - M - 24;

function newDoc(fontDir: string) {
  const file = `${fontDir}/NotoSansCJK-Regular.ttc`;
  if (!fs.existsSync(file))
    throw new Error(`Fonts missing in ${fontDir} (apt-get install fonts-noto-cjk, or set LABEL_FONT_DIR)`);
  const doc = new PDFDocument({
    size: [A4.width, A4.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: 'Commercial invoice and packing list', Producer: 'console' },
  });
  // The Japanese face: the broker and Japan Customs read it; Chinese names print with it too.
  doc.registerFont('text', file, 'NotoSansCJKjp-Regular');
  return doc.font('text');
}

type Col = { title: string; width: number; align?: 'left' | 'right' };

function cell(doc: PDFKit.PDFDocument, text: string, x: number, y: number, c: Col) {
  doc.text(text, x + 2, y + 2, {
    width: c.width - 4,
    height: ROW - 2,
    align: c.align ?? 'left',
    lineBreak: false,
    ellipsis: true,
  });
}

/** A table from `y`; a new page (with the header again) when it reaches the bottom. */
function table(doc: PDFKit.PDFDocument, y: number, cols: Col[], rows: string[][], heading: () => number): number {
  const header = (at: number) => {
    doc.fontSize(7);
    let x = M;
    doc
      .rect(M, at, A4.width - 2 * M, ROW + 6)
      .fillAndStroke('#eeeeee', '#999999')
      .fillColor('#000000');
    for (const c of cols) {
      doc.text(c.title, x + 2, at + 1.5, { width: c.width - 4, height: ROW + 4, align: c.align ?? 'left' });
      x += c.width;
    }
    return at + ROW + 6;
  };
  y = header(y);
  doc.fontSize(7.5);
  for (const [n, r] of rows.entries()) {
    if (n % 500 === 499) forgetLayouts(doc);
    if (y + ROW > BOTTOM) {
      doc.addPage();
      y = header(heading());
      doc.fontSize(7.5);
    }
    let x = M;
    r.forEach((t, i) => {
      cell(doc, t, x, y, cols[i]!);
      x += cols[i]!.width;
    });
    doc
      .moveTo(M, y + ROW)
      .lineTo(A4.width - M, y + ROW)
      .lineWidth(0.3)
      .stroke('#cccccc');
    y += ROW;
  }
  return y;
}

const yen = (v: number | null) => (v == null ? '-' : v.toLocaleString('en-US'));

function partyBlock(doc: PDFKit.PDFDocument, d: PdDocument, y: number) {
  const o = d.orders[0]!;
  const exporters = new Set(d.orders.map((x) => x.exporter.corporateNumber ?? x.exporter.nameEn));
  const half = (A4.width - 2 * M) / 2;
  doc.fontSize(8).text('Exporter / 輸出者', M, y);
  const exporter =
    exporters.size > 1
      ? 'Various — see each line / 明細参照'
      : [
          o.exporter.nameEn,
          o.exporter.nameJa,
          o.exporter.address,
          o.exporter.tel ? `Tel ${o.exporter.tel}` : null,
          o.exporter.corporateNumber ? `Corporate No. / 法人番号 ${o.exporter.corporateNumber}` : null,
        ]
          .filter(Boolean)
          .join('\n') || '-';
  doc.fontSize(9).text(exporter, M, y + 11, { width: half - 10 });
  doc.fontSize(8).text('Consignee / 荷受人', M + half, y);
  const consignee = d.consolidated
    ? 'Various — see packing list / 包装明細書参照'
    : `${o.consignee.name}\n${o.consignee.address}\n${o.consignee.country}`;
  doc.fontSize(9).text(consignee, M + half, y + 11, { width: half });
  return y + 80;
}

function title(doc: PDFKit.PDFDocument, en: string, ja: string, d: PdDocument, date: string) {
  doc.fontSize(16).text(`${en} / ${ja}`, M, M, { width: A4.width - 2 * M, align: 'center' });
  doc
    .fontSize(8)
    .text(`Invoice No. / 送り状番号: ${d.number}`, M, M + 26)
    .text(`Date / 日付: ${date}`, M, M + 26, { width: A4.width - 2 * M, align: 'right' });
  return M + 44;
}

function drawInvoice(doc: PDFKit.PDFDocument, d: PdDocument, date: string) {
  doc.addPage();
  let y = partyBlock(doc, d, title(doc, 'COMMERCIAL INVOICE', '商業送り状', d, date));
  const cols: Col[] = [
    { title: d.consolidated ? 'Order / 注文番号' : 'No. / 欄', width: d.consolidated ? 80 : 30 },
    { title: 'Description / 品名', width: d.consolidated ? 170 : 220 },
    { title: 'Category / 統計品目', width: 60 },
    { title: 'Origin / 原産地', width: 45 },
    { title: 'Qty / 数量', width: 50, align: 'right' },
    { title: 'Unit / 単位', width: 35 },
    { title: 'Amount JPY / 金額（円）', width: 83.28, align: 'right' },
  ];
  const rows = d.orders.flatMap((o) =>
    o.lines.map((l) => [
      d.consolidated ? o.orderNo : String(l.lineNo),
      `${l.description}${l.descriptionJa !== l.description ? ` / ${l.descriptionJa}` : ''}`,
      l.exportCategory ?? '-',
      l.origin,
      String(l.quantity),
      l.unit,
      yen(l.valueJpy),
    ]),
  );
  y = table(doc, y, cols, rows, () => M);
  const known = d.orders.every((o) => o.valueJpy != null);
  const total = d.orders.reduce((a, o) => a + (o.valueJpy ?? 0), 0);
  const pieces = d.orders.reduce((a, o) => a + o.quantity, 0);
  if (y + 40 > BOTTOM) {
    doc.addPage();
    y = M;
  }
  doc
    .fontSize(9)
    .text(`Total pieces / 合計数量: ${pieces} PCE`, M, y + 8)
    .text(`Total / 合計: JPY ${known ? yen(total) : `${yen(total)} (incomplete / 一部不明)`}`, M, y + 8, {
      width: A4.width - 2 * M,
      align: 'right',
    })
    .fontSize(7.5)
    .text('Terms / 取引条件: FOB Japan. Values in Japanese yen. / 価格は日本円。', M, y + 24);
}

function drawPackingList(doc: PDFKit.PDFDocument, d: PdDocument, date: string) {
  doc.addPage();
  let y = partyBlock(doc, d, title(doc, 'PACKING LIST', '包装明細書', d, date));
  const cols: Col[] = [
    { title: 'Order / 注文番号', width: 85 },
    { title: 'Waybill / 運送状番号', width: 85 },
    { title: 'Consignee / 荷受人', width: 90 },
    { title: 'Contents / 内容', width: 153.28 },
    { title: 'Pieces / 個数', width: 50, align: 'right' },
    { title: 'Weight kg / 重量', width: 60, align: 'right' },
  ];
  const rows = d.orders.map((o) => [
    o.orderNo,
    o.waybillNo ?? '-',
    o.consignee.name,
    o.description,
    String(o.quantity),
    kg(o.weightG) ?? '-',
  ]);
  y = table(doc, y, cols, rows, () => M);
  const grams = d.orders.every((o) => o.weightG != null) ? d.orders.reduce((a, o) => a + o.weightG!, 0) : null;
  if (y + 20 > BOTTOM) {
    doc.addPage();
    y = M;
  }
  doc
    .fontSize(9)
    .text(`Packages / 個口数: ${d.orders.length}   Net weight / 正味重量: ${kg(grams) ?? '-'} kg`, M, y + 8);
}

/** Draws the documents into `out`; reports the orders drawn so far. */
export async function renderPd(job: PdRender, out: string, onProgress?: (orders: number) => void): Promise<void> {
  const doc = newDoc(job.fontDir);
  let drawn = 0;
  await writePdf(doc, out, async (letWrite) => {
    for (let i = 0; i < job.documents.length; i++) {
      const d = job.documents[i]!;
      drawInvoice(doc, d, job.date);
      drawPackingList(doc, d, job.date);
      drawn += d.orders.length;
      onProgress?.(drawn);
      if ((i + 1) % 50 === 0) forgetLayouts(doc);
      await letWrite();
    }
    if (!job.documents.length) doc.addPage();
  });
  onProgress?.(drawn);
}
