import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import { writePdf } from '../../lib/pdf-file.ts';
import { drawBarcode } from '../labels/index.ts';

/**
 * The appointment slip (A4, pdfkit): page 1 the booking (its number as a Code 128 barcode, the
 * slot and the depot's address), then the box markers to stick on the boxes, one per expected
 * big carton and small parcel: marker prefix + "-" + a three-digit sequence, each as text and
 * barcode, so the warehouse scan of a marker finds the booking. Same font and barcode drawing
 * as the labels (modules/labels).
 *
 * Drawn in a worker of lib/workbook-job.ts (`renderFile`), as the label PDFs are: a slip of 1,000
 * markers is about 1.6 s of drawing, which on the event loop held every other call that long.
 */
const MM = 72 / 25.4;
const mm = (v: number) => v * MM;
const A4 = { width: 210, height: 297 } as const;

/** Where the barcodes are (mm from the top left): the tests crop there to decode them. */
export const SLIP_LAYOUT = {
  bookingBarcode: { x: 20, y: 30, width: 110, height: 22 },
  markers: { top: 20, left: 15, columns: 2, rows: 5, cellWidth: 90, cellHeight: 52, barcodeHeight: 16 },
} as const;
export const MARKERS_PER_PAGE = SLIP_LAYOUT.markers.columns * SLIP_LAYOUT.markers.rows;

/** The depot each region's pickups go to, printed on the slip. */
export const DEPOTS = {
  tokyo: '〒136-0082 東京都江東区新木場 2-14-6 越境物流 東京倉庫 / Tokyo depot, 2-14-6 Shinkiba, Koto-ku, Tokyo',
  osaka:
    '〒559-0031 大阪府大阪市住之江区南港東 4-3-40 越境物流 大阪倉庫 / Osaka depot, 4-3-40 Nankohigashi, Suminoe-ku, Osaka',
} as const;

export interface SlipData {
  pickupNo: string;
  customerCode: string;
  region: keyof typeof DEPOTS;
  regionName: string;
  date: string;
  slot: string;
  boxNo: string;
  shopAbbr: string;
  bigCartons: number;
  smallParcels: number;
  markerPrefix: string;
  labels: Record<'title' | 'pickupNo' | 'slot' | 'address' | 'box' | 'shop' | 'counts' | 'big' | 'small', string>;
}

/** What the worker is given (structured-cloned): the slip and where the fonts are. */
export interface SlipRender extends SlipData {
  fontDir: string;
}

/** One marker per expected box: big cartons first, then small parcels, numbered 001… */
export function markersOf(d: Pick<SlipData, 'markerPrefix' | 'bigCartons' | 'smallParcels'>) {
  const out: { code: string; kind: 'big' | 'small' }[] = [];
  const total = d.bigCartons + d.smallParcels;
  for (let i = 1; i <= total; i++)
    out.push({ code: `${d.markerPrefix}-${String(i).padStart(3, '0')}`, kind: i <= d.bigCartons ? 'big' : 'small' });
  return out;
}

/** Draws the slip into `out` (a render function of the file workers: `renderFile`). */
export async function renderSlip(d: SlipRender, out: string, onProgress?: (markers: number) => void): Promise<void> {
  // Drawn in one go, the whole PDF waiting in the file stream until the end: 1,000 markers make
  // about 0.2 MiB (bench:slips), and the worker has nothing else to do meanwhile.
  const font = `${d.fontDir}/NotoSansCJK-Regular.ttc`;
  if (!fs.existsSync(font))
    throw new Error(`Slip fonts missing in ${d.fontDir} (apt-get install fonts-noto-cjk, or set LABEL_FONT_DIR)`);
  const doc = new PDFDocument({
    size: [mm(A4.width), mm(A4.height)],
    margin: 0,
    autoFirstPage: false,
    info: { Title: `Pickup ${d.pickupNo}`, Producer: 'console' },
  });
  doc.registerFont('text', font, 'NotoSansCJKsc-Regular');
  await writePdf(doc, out, () => {
    drawBooking(doc, d);
    const m = SLIP_LAYOUT.markers;
    const markers = markersOf(d);
    for (const [i, mk] of markers.entries()) {
      const k = i % MARKERS_PER_PAGE;
      if (k === 0) doc.addPage();
      const x = m.left + (k % m.columns) * m.cellWidth;
      const top = m.top + Math.floor(k / m.columns) * m.cellHeight;
      doc
        .rect(mm(x), mm(top), mm(m.cellWidth - 4), mm(m.cellHeight - 4))
        .dash(3, { space: 3 })
        .lineWidth(0.5)
        .stroke('#888888')
        .undash();
      doc
        .fillColor('#000000')
        .fontSize(20)
        .text(mk.code, mm(x + 5), mm(top + 4), { width: mm(m.cellWidth - 14) });
      drawBarcode(doc, 'code128', mk.code, { x: x + 5, y: top + 16, width: m.cellWidth - 14, height: m.barcodeHeight });
      doc
        .fontSize(9)
        .text(
          `${mk.kind === 'big' ? d.labels.big : d.labels.small} ${i + 1}/${markers.length}  ${d.pickupNo}  ${d.date} ${d.slot}`,
          mm(x + 5),
          mm(top + 36),
          { width: mm(m.cellWidth - 14) },
        );
    }
  });
  onProgress?.(markersOf(d).length);
}

/** Page 1: the booking's number as a barcode, its slot, the depot, the box and the counts. */
function drawBooking(doc: PDFKit.PDFDocument, d: SlipData) {
  doc.addPage();
  doc.font('text').fontSize(18).text(d.labels.title, mm(20), mm(15));
  drawBarcode(doc, 'code128', d.pickupNo, SLIP_LAYOUT.bookingBarcode);
  const lines: [string, string][] = [
    [d.labels.pickupNo, d.pickupNo],
    [d.labels.slot, `${d.regionName}  ${d.date}  ${d.slot}`],
    [d.labels.address, DEPOTS[d.region]],
    [d.labels.box, d.boxNo],
    [d.labels.shop, `${d.shopAbbr}  (${d.customerCode})`],
    [d.labels.counts, `${d.labels.big} ${d.bigCartons} / ${d.labels.small} ${d.smallParcels}`],
  ];
  let y = 62;
  for (const [k, v] of lines) {
    doc.fontSize(10).text(k, mm(20), mm(y), { width: mm(35) });
    doc.fontSize(11).text(v, mm(58), mm(y), { width: mm(132) });
    y += v.length > 60 ? 16 : 10;
  }
}
