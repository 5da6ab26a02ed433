import fs from 'node:fs';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { forgetLayouts, writePdf } from '../../lib/pdf-file.ts';

/**
 * The label PDFs (issue 14): label A, the 100 × 150 mm waybill label, and the product label
 * (the picking list: each item's JAN as a barcode). Pure drawing from plain records, so it
 * runs in a worker thread (lib/workbook-job.ts `renderFile`) and in benchmarks as it is.
 *
 * Text is Noto Sans CJK from Debian's `fonts-noto-cjk` (LABEL_FONT_DIR), embedded as a subset
 * (pdfkit embeds only the glyphs used). Barcodes are encoded by bwip-js and drawn as vector bars
 * (`drawBarcode`), sharp on a 203 dpi label printer and in the tests that decode them back.
 */

/** One order as its label shows it (masked where the spec's lists mask). */
export interface LabelOrder {
  waybillNo: string;
  channel: string;
  orderNo: string;
  splitWaybillNo: string | null;
  recipient: { name: string; phone: string; address: string; postcode: string | null };
  sender: { name: string | null; phone: string | null; address: string | null };
  items: { name: string; jan: string | null; quantity: number }[];
  /** A replacement label after an address change: marked "B". */
  replacement: boolean;
}

export interface LabelRender {
  kind: 'labelA' | 'product';
  orders: LabelOrder[];
  /** The print time shown, already in UTC+8 (`YYYY-MM-DD HH:mm`). */
  printedAt: string;
  fontDir: string;
}

const MM = 72 / 25.4;
const mm = (v: number) => v * MM;
export const LABEL_SIZE_MM = { width: 100, height: 150 } as const;
/**
 * Where the barcodes are, in mm from the top left: the tests crop there to decode each one.
 * Product labels list up to PRODUCT_ROWS items a page, one barcode a row.
 */
export const LAYOUT = {
  waybillBarcode: { x: 5, y: 12, width: 90, height: 20 },
  address: { x: 5, y: 58, width: 90, height: 26 },
  product: { top: 16, rowHeight: 26, barcodeWidth: 44, barcodeHeight: 16 },
} as const;
export const PRODUCT_ROWS = 5;

/** Called with the labels drawn so far, for a progress bar. */
export type OnProgress = (labels: number) => void;

function fontFile(dir: string) {
  const regular = `${dir}/NotoSansCJK-Regular.ttc`;
  if (!fs.existsSync(regular))
    throw new Error(`Label fonts missing in ${dir} (apt-get install fonts-noto-cjk, or set LABEL_FONT_DIR)`);
  return regular;
}

/**
 * Bold is the regular face filled and outlined (a stroke of 1/30 of the size): a second CJK face
 * (the Bold collection) cost about 40 MiB more in every worker that draws labels.
 */
const STRONG = { fill: true, stroke: true } as const;
const strong = (doc: PDFKit.PDFDocument, size: number) =>
  doc
    .font('text')
    .fontSize(size)
    .lineWidth(size / 30);

function newDoc(fontDir: string) {
  const doc = new PDFDocument({
    size: [mm(LABEL_SIZE_MM.width), mm(LABEL_SIZE_MM.height)],
    margin: 0,
    autoFirstPage: false,
    info: { Title: 'Labels', Producer: 'console' },
  });
  // The Simplified Chinese face of the collection: recipients are in China; Japanese kana and
  // kanji are in it too (a sender's address in Japan prints).
  doc.registerFont('text', fontFile(fontDir), 'NotoSansCJKsc-Regular');
  return doc;
}

/**
 * A barcode drawn as vector bars into a box (mm): bwip-js encodes it (as SVG: one path of
 * vertical strokes per bar width), pdfkit draws the strokes scaled into the box. Vectors print
 * sharp at any printer resolution and cost a tenth of a PNG (10 ms a label, most of the time).
 */
export function drawBarcode(
  doc: PDFKit.PDFDocument,
  bcid: 'code128' | 'ean13' | 'ean8',
  text: string,
  box: { x: number; y: number; width: number; height: number },
) {
  const svg = bwipjs.toSVG({ bcid, text, height: 14, includetext: false, paddingwidth: 10 });
  const view = svg.match(/viewBox="0 0 ([\d.]+) ([\d.]+)"/);
  if (!view) throw new Error(`bwip-js drew no barcode for ${bcid} ${text}`);
  doc.save();
  doc.translate(mm(box.x), mm(box.y));
  doc.scale(mm(box.width) / Number(view[1]), mm(box.height) / Number(view[2]));
  for (const m of svg.matchAll(/<path stroke="#000000" stroke-width="([\d.]+)" d="([^"]+)"/g))
    doc.path(m[2]!).lineWidth(Number(m[1])).lineCap('butt').stroke('#000000');
  doc.restore();
}

/** A JAN as bwip-js takes it: EAN-13 or EAN-8 by its length; anything else is not drawn. */
const janKind = (jan: string | null) =>
  jan && /^\d{13}$/.test(jan) ? 'ean13' : jan && /^\d{8}$/.test(jan) ? 'ean8' : null;

/**
 * Writes `text` inside a box, shrinking from `size` down to `min` points until it fits; at the
 * smallest size what does not fit is cut with an ellipsis, never drawn past the box.
 */
function fitText(
  doc: PDFKit.PDFDocument,
  text: string,
  box: { x: number; y: number; width: number; height: number },
  size: number,
  min = 6,
  bold = false,
) {
  doc.font('text');
  const opts = { width: mm(box.width), lineGap: 0 };
  let s = size;
  for (; s > min; s -= 0.5) if (doc.fontSize(s).heightOfString(text, opts) <= mm(box.height)) break;
  doc.fontSize(s);
  let shown = text;
  if (doc.heightOfString(shown, opts) > mm(box.height)) {
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (doc.heightOfString(`${text.slice(0, mid)}…`, opts) <= mm(box.height)) lo = mid;
      else hi = mid - 1;
    }
    shown = `${text.slice(0, lo)}…`;
  }
  if (bold) doc.lineWidth(s / 30);
  doc.text(shown, mm(box.x), mm(box.y), { ...opts, height: mm(box.height), ellipsis: false, ...(bold ? STRONG : {}) });
}

function rule(doc: PDFKit.PDFDocument, y: number) {
  doc.moveTo(mm(3), mm(y)).lineTo(mm(97), mm(y)).lineWidth(0.6).stroke();
}

function drawLabelA(doc: PDFKit.PDFDocument, o: LabelOrder, printedAt: string) {
  doc.addPage();
  strong(doc, 16).text(o.channel, mm(5), mm(3), { width: mm(60), lineBreak: false, ...STRONG });
  if (o.replacement) {
    doc.rect(mm(84), mm(2.5), mm(11), mm(8)).lineWidth(1.2).stroke();
    strong(doc, 16).text('B', mm(84), mm(3.2), { width: mm(11), align: 'center', ...STRONG });
  }
  const b = LAYOUT.waybillBarcode;
  drawBarcode(doc, 'code128', o.waybillNo, b);
  strong(doc, 13).text(o.waybillNo, mm(5), mm(b.y + b.height + 1), {
    width: mm(90),
    align: 'center',
    lineBreak: false,
    ...STRONG,
  });
  doc.font('text').fontSize(8);
  doc.text(`订单号 Order: ${o.orderNo}`, mm(5), mm(40), { width: mm(90), lineBreak: false });
  if (o.splitWaybillNo)
    doc.text(`子单号 Split: ${o.splitWaybillNo}`, mm(5), mm(44), { width: mm(90), lineBreak: false });
  rule(doc, 48);
  strong(doc, 9).text('收件人 To', mm(5), mm(49.5), { lineBreak: false, ...STRONG });
  fitText(
    doc,
    `${o.recipient.name}  ${o.recipient.phone}${o.recipient.postcode ? `  ${o.recipient.postcode}` : ''}`,
    { x: 24, y: 49.5, width: 71, height: 7 },
    11,
    7,
    true,
  );
  fitText(doc, o.recipient.address, LAYOUT.address, 12);
  rule(doc, 86);
  strong(doc, 8).text('寄件人 From', mm(5), mm(87.5), { lineBreak: false, ...STRONG });
  const sender = [o.sender.name, o.sender.phone].filter(Boolean).join('  ');
  fitText(doc, sender || '-', { x: 24, y: 87.5, width: 71, height: 4.5 }, 8, 6);
  fitText(doc, o.sender.address ?? '', { x: 5, y: 92.5, width: 90, height: 8 }, 8, 5.5);
  rule(doc, 102);
  const pieces = o.items.reduce((n, it) => n + it.quantity, 0);
  const lines = o.items.map((it) => `${it.name} × ${it.quantity}`);
  const shown = lines.length > 6 ? [...lines.slice(0, 5), `… +${lines.length - 5}`] : lines;
  fitText(doc, shown.join('\n'), { x: 5, y: 103.5, width: 90, height: 36 }, 8, 5.5);
  rule(doc, 141);
  doc
    .font('text')
    .fontSize(8)
    .text(`件数 Pieces: ${pieces}`, mm(5), mm(142.5), { width: mm(40), lineBreak: false })
    .text(`打印 ${printedAt} (UTC+8)`, mm(45), mm(142.5), { width: mm(50), align: 'right', lineBreak: false });
}

function drawProductPages(doc: PDFKit.PDFDocument, o: LabelOrder) {
  const p = LAYOUT.product;
  for (let start = 0; start < Math.max(1, o.items.length); start += PRODUCT_ROWS) {
    doc.addPage();
    strong(doc, 11).text(`${o.waybillNo}`, mm(5), mm(4), { width: mm(60), lineBreak: false, ...STRONG });
    doc
      .font('text')
      .fontSize(8)
      .text(
        `${o.orderNo}  ${Math.floor(start / PRODUCT_ROWS) + 1}/${Math.max(1, Math.ceil(o.items.length / PRODUCT_ROWS))}`,
        mm(5),
        mm(9.5),
        {
          width: mm(90),
          lineBreak: false,
        },
      );
    rule(doc, 14);
    const page = o.items.slice(start, start + PRODUCT_ROWS);
    for (let i = 0; i < page.length; i++) {
      const it = page[i]!;
      const y = p.top + i * p.rowHeight;
      const kind = janKind(it.jan);
      if (kind) drawBarcode(doc, kind, it.jan!, { x: 4, y, width: p.barcodeWidth, height: p.barcodeHeight });
      doc
        .font('text')
        .fontSize(8)
        .text(it.jan ?? '-', mm(4), mm(y + p.barcodeHeight + 1), {
          width: mm(p.barcodeWidth),
          align: 'center',
          lineBreak: false,
        });
      fitText(doc, it.name, { x: 51, y, width: 32, height: 18 }, 9, 6);
      strong(doc, 14).text(`× ${it.quantity}`, mm(84), mm(y + 4), {
        width: mm(13),
        align: 'right',
        lineBreak: false,
        ...STRONG,
      });
    }
  }
}

/** Labels between two emptyings of pdfkit's layout cache (lib/pdf-file.ts `forgetLayouts`). */
const LAYOUT_CACHE_LABELS = 100;

/** Draws the labels into `out` (a file path); resolves when the file is complete. */
export async function renderLabels(job: LabelRender, out: string, onProgress?: OnProgress): Promise<void> {
  const doc = newDoc(job.fontDir);
  await writePdf(doc, out, async (letWrite) => {
    for (let i = 0; i < job.orders.length; i++) {
      const o = job.orders[i]!;
      if (job.kind === 'labelA') drawLabelA(doc, o, job.printedAt);
      else drawProductPages(doc, o);
      if ((i + 1) % 50 === 0) onProgress?.(i + 1);
      if ((i + 1) % LAYOUT_CACHE_LABELS === 0) forgetLayouts(doc);
      if ((i + 1) % 10 === 0) await letWrite();
    }
    if (!job.orders.length) doc.addPage();
  });
  onProgress?.(job.orders.length);
}
