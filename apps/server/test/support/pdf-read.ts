import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zx from '@zxing/library';

/**
 * Reads generated PDFs back as a person or a scanner would (issue 14): a page rendered by
 * poppler's `pdftoppm` and a box of it decoded with ZXing, the text by `pdftotext`. Nothing
 * here knows how the PDF was drawn but where (in mm) to look.
 */
const { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } = zx;
const DPI = 300;

export interface PageImage {
  width: number;
  height: number;
  gray: Uint8Array;
}

/** Page `page` (1-based) of the PDF as 8-bit grey pixels at 300 dpi. */
export function renderPage(pdf: string, page: number): PageImage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-page-'));
  try {
    execFileSync('pdftoppm', ['-gray', '-r', String(DPI), '-f', String(page), '-l', String(page), pdf, `${dir}/p`]);
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.pgm'));
    if (!file) throw new Error(`pdftoppm wrote no page ${page} of ${pdf}`);
    const buf = fs.readFileSync(path.join(dir, file));
    const m = buf.toString('latin1', 0, 64).match(/^P5\s+(\d+)\s+(\d+)\s+255\s/);
    if (!m) throw new Error('not a PGM image');
    const width = Number(m[1]);
    const height = Number(m[2]);
    return { width, height, gray: buf.subarray(m[0].length, m[0].length + width * height) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const px = (v: number) => Math.round((v / 25.4) * DPI);

/** The barcode in a box of the page (mm from the top left), or null when none reads. */
export function decodeBox(
  img: PageImage,
  box: { x: number; y: number; width: number; height: number },
): { format: string; text: string } | null {
  const x0 = Math.max(0, px(box.x) - 20);
  const y0 = Math.max(0, px(box.y) - 20);
  const w = Math.min(img.width - x0, px(box.width) + 40);
  const h = Math.min(img.height - y0, px(box.height) + 40);
  const crop = new Uint8ClampedArray(w * h);
  for (let r = 0; r < h; r++)
    crop.set(img.gray.subarray((y0 + r) * img.width + x0, (y0 + r) * img.width + x0 + w), r * w);
  const hints = new Map<zx.DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128, BarcodeFormat.EAN_13, BarcodeFormat.EAN_8]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  try {
    const r = new MultiFormatReader().decode(
      new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(crop, w, h))),
      hints,
    );
    return { format: BarcodeFormat[r.getBarcodeFormat()]!, text: r.getText() };
  } catch {
    return null;
  }
}

type Box = { x: number; y: number; width: number; height: number };
const within = (b: Box, x: number, y: number) =>
  x >= px(b.x) && x < px(b.x + b.width) && y >= px(b.y) && y < px(b.y + b.height);
function countDark(img: PageImage, keep: (x: number, y: number) => boolean) {
  let n = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) if (keep(x, y) && img.gray[y * img.width + x]! < 128) n++;
  return n;
}
/** Dark pixels of the page outside `inside` (mm): nothing drawn past the label's edge. */
export const darkOutside = (img: PageImage, inside: Box) => countDark(img, (x, y) => !within(inside, x, y));
/** Dark pixels inside a box (mm): a band that must stay blank. */
export const darkInside = (img: PageImage, box: Box) => countDark(img, (x, y) => within(box, x, y));

/** The text of one page (or all), as poppler reads it. */
export function pdfText(pdf: string, page?: number): string {
  const range = page ? ['-f', String(page), '-l', String(page)] : [];
  return execFileSync('pdftotext', ['-layout', ...range, pdf, '-'], { encoding: 'utf8' });
}

/** The page count. */
export function pdfPages(pdf: string): number {
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  return Number(info.match(/^Pages:\s+(\d+)/m)?.[1] ?? 0);
}
