/**
 * Label benchmark (issue 14): 1,000 waybill labels (label A) into one PDF through the product's
 * renderer (`modules/labels/labels.render.ts`: text fitted into boxes, masked recipients as the
 * service passes them), beside bare pdfkit + bwip-js drawing the same content at fixed sizes,
 * alternated in the same process (three rounds each, medians). Prints the speed ratio (goal:
 * the product at least 70 % of the bare speed) and the peak RSS of a child process that renders
 * the 1,000 labels through the product code alone (goal: under 300 MiB).
 *   npm run bench:labels -w apps/server  [-- <labels>]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { type LabelOrder, type LabelRender, renderLabels } from '../src/modules/labels/labels.render.ts';

const FONTS = process.env.LABEL_FONT_DIR ?? '/usr/share/fonts/opentype/noto';
const count = Number(process.argv[3] ?? process.argv[2] ?? 1000) || 1000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-labels-'));

function orders(n: number): LabelOrder[] {
  const streets = ['建国路', '人民路', '解放路', '中山路', '长安街'];
  return Array.from({ length: n }, (_, i) => ({
    waybillNo: `DM${String(10_000_000 + i)}CN`,
    channel: i % 3 ? 'JP' : 'EMS',
    orderNo: `BENCH-${i}`,
    splitWaybillNo: i % 10 ? null : `SP${i}`,
    recipient: {
      name: ['张三', '李四', '王五', '赵六'][i % 4]!,
      phone: '138****5678',
      // Every tenth address is long (200 characters) and has to be fitted.
      address:
        i % 10
          ? `北京市朝阳区${streets[i % 5]}${i % 300}号${i % 20}单元${i % 7}01室`
          : `广东省深圳市南山区${'科技园某某大厦某某层'.repeat(20)}`.slice(0, 200),
      postcode: '100022',
    },
    sender: { name: '山田商事', phone: '03-1234-5678', address: `東京都千代田区丸の内${(i % 3) + 1}-1-1` },
    items: Array.from({ length: 1 + (i % 3) }, (_, k) => ({
      name: ['明治 奶粉 800g', '花王 纸尿裤 L', '资生堂 洗面奶'][k]!,
      jan: null,
      quantity: k + 1,
    })),
    replacement: i % 50 === 0,
  }));
}

/** The same content drawn with pdfkit and bwip-js directly: fixed font sizes, nothing fitted. */
async function bare(list: LabelOrder[], out: string) {
  const mm = (v: number) => (v * 72) / 25.4;
  const doc = new PDFDocument({ size: [mm(100), mm(150)], margin: 0, autoFirstPage: false });
  doc.registerFont('text', `${FONTS}/NotoSansCJK-Regular.ttc`, 'NotoSansCJKsc-Regular');
  const file = fs.createWriteStream(out);
  const done = new Promise<void>((r) => file.on('finish', () => r()));
  doc.pipe(file);
  for (const [i, o] of list.entries()) {
    // Turns of the event loop let the file stream write, as the product does: the comparison is
    // of the drawing, not of where the PDF waits.
    if (i % 10 === 9) await new Promise((r) => setImmediate(r));
    doc.addPage();
    // Bold as the product draws it: the one face, filled and outlined.
    doc
      .font('text')
      .fontSize(16)
      .lineWidth(16 / 30)
      .text(o.channel, mm(5), mm(3), { fill: true, stroke: true });
    // The barcode as bwip-js's SVG strokes, scaled into its box (the cheapest direct way).
    const svg = bwipjs.toSVG({ bcid: 'code128', text: o.waybillNo, height: 14, includetext: false, paddingwidth: 10 });
    const [, w, h] = svg.match(/viewBox="0 0 ([\d.]+) ([\d.]+)"/)!;
    doc
      .save()
      .translate(mm(5), mm(12))
      .scale(mm(90) / Number(w), mm(20) / Number(h));
    for (const m of svg.matchAll(/stroke-width="([\d.]+)" d="([^"]+)"/g))
      doc.path(m[2]!).lineWidth(Number(m[1])).stroke();
    doc.restore();
    doc
      .fontSize(13)
      .lineWidth(13 / 30)
      .text(o.waybillNo, mm(5), mm(33), { width: mm(90), align: 'center', fill: true, stroke: true });
    doc.font('text').fontSize(8).text(`订单号 Order: ${o.orderNo}`, mm(5), mm(40));
    doc
      .fontSize(11)
      .lineWidth(11 / 30)
      .text(`${o.recipient.name}  ${o.recipient.phone}`, mm(24), mm(49.5), { fill: true, stroke: true });
    doc
      .font('text')
      .fontSize(7)
      .text(o.recipient.address, mm(5), mm(58), { width: mm(90) });
    doc.fontSize(8).text(`${o.sender.name}  ${o.sender.phone}`, mm(24), mm(87.5));
    doc.text(o.sender.address ?? '', mm(5), mm(92.5), { width: mm(90) });
    doc.text(o.items.map((it) => `${it.name} × ${it.quantity}`).join('\n'), mm(5), mm(103.5), { width: mm(90) });
    doc.text(`件数 Pieces: ${o.items.length}`, mm(5), mm(142.5));
  }
  doc.end();
  await done;
}

const job = (list: LabelOrder[]): LabelRender => ({
  kind: 'labelA',
  orders: list,
  printedAt: '2026-11-24 17:40',
  fontDir: FONTS,
});

// `--child`: render through the product code alone and print this process's peak RSS.
if (process.argv[2] === '--child') {
  const out = path.join(dir, 'child.pdf');
  await renderLabels(job(orders(count)), out);
  console.log(JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024, bytes: fs.statSync(out).size }));
  process.exit(0);
}

const list = orders(count);
const time = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
};
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
// A warm-up of each, so font parsing and JIT are not counted in the first round only.
await bare(list.slice(0, 20), path.join(dir, 'warm-bare.pdf'));
await renderLabels(job(list.slice(0, 20)), path.join(dir, 'warm-product.pdf'));
const bareS: number[] = [];
const productS: number[] = [];
for (let round = 0; round < 3; round++) {
  bareS.push(await time(() => bare(list, path.join(dir, 'bare.pdf'))));
  productS.push(await time(() => renderLabels(job(list), path.join(dir, 'product.pdf'))));
}
const b = median(bareS);
const p = median(productS);
const child = JSON.parse(
  execFileSync(process.execPath, [import.meta.filename, '--child', String(count)], { encoding: 'utf8' }).trim(),
) as { maxRssMiB: number; bytes: number };
const mb = (f: string) => (fs.statSync(path.join(dir, f)).size / 1024 / 1024).toFixed(1);
console.log(
  `bench:labels — ${count} waybill labels (100 × 150 mm) into one PDF, load average ${os.loadavg()[0]!.toFixed(1)}`,
);
console.log(`  bare pdfkit + bwip-js: ${b.toFixed(2)} s (${(count / b).toFixed(0)} labels/s), ${mb('bare.pdf')} MB`);
console.log(`  product renderer:      ${p.toFixed(2)} s (${(count / p).toFixed(0)} labels/s), ${mb('product.pdf')} MB`);
console.log(
  `  speed ratio product / bare: ${((b / p) * 100).toFixed(0)} % (goal >= 70 %)   rounds: bare ${bareS.map((s) => s.toFixed(2)).join(' ')} / product ${productS.map((s) => s.toFixed(2)).join(' ')}`,
);
console.log(
  `  peak RSS rendering ${count} labels (child process, product code alone): ${child.maxRssMiB.toFixed(0)} MiB (goal < 300 MiB)`,
);
fs.rmSync(dir, { recursive: true, force: true });
