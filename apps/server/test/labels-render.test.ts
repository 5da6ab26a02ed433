import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eanCheckDigit } from '@console/contract';
import { describe, expect, it } from 'vitest';
import { LAYOUT, type LabelOrder, PRODUCT_ROWS, renderLabels } from '../src/modules/labels/labels.render.ts';
import { darkInside, darkOutside, decodeBox, pdfPages, pdfText, renderPage } from './support/pdf-read.ts';

/**
 * The label PDFs read back (issue 14): rendered to pixels by poppler and decoded by ZXing,
 * their text extracted — the waybill and every JAN must read back exactly, the recipient in
 * Chinese and the sender in Japanese must be text, a long address must stay inside its box.
 */
const FONTS = '/usr/share/fonts/opentype/noto';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-'));
const jan13 = (() => {
  const d = '490123456789';
  return d + eanCheckDigit(d);
})();
const jan8 = (() => {
  const d = '4901234';
  return d + eanCheckDigit(d);
})();
const longAddress = `北京市朝阳区建国门外大街${'某某小区某某号楼某某单元'.repeat(15)}`.slice(0, 200);

const order = (i: number, extra: Partial<LabelOrder> = {}): LabelOrder => ({
  waybillNo: `DM1000${String(i).padStart(4, '0')}CN`,
  channel: 'JP',
  orderNo: `ORD-${i}`,
  splitWaybillNo: i === 2 ? `SP-${i}` : null,
  recipient: { name: '张三丰', phone: '138****5678', address: '北京市朝阳区建国路88号', postcode: '100022' },
  sender: { name: '山田太郎', phone: '03-1234-5678', address: '東京都千代田区丸の内1-1-1' },
  items: [
    { name: '明治 奶粉 800g', jan: jan13, quantity: 2 },
    { name: '花王 纸尿裤 L', jan: jan8, quantity: 1 },
  ],
  replacement: false,
  ...extra,
});

describe('label A', () => {
  const file = path.join(dir, 'a.pdf');
  const orders = [
    order(1),
    order(2, { recipient: { name: '李四', phone: '139****0000', address: longAddress, postcode: null } }),
    order(3, { replacement: true }),
  ];

  it('one page per order; each waybill reads back from its Code 128', async () => {
    const seen: number[] = [];
    await renderLabels({ kind: 'labelA', orders, printedAt: '2026-11-24 17:40', fontDir: FONTS }, file, (n) =>
      seen.push(n),
    );
    expect(pdfPages(file)).toBe(3);
    expect(seen.at(-1)).toBe(3);
    for (let p = 1; p <= 3; p++) {
      const img = renderPage(file, p);
      expect(decodeBox(img, LAYOUT.waybillBarcode)).toEqual({ format: 'CODE_128', text: orders[p - 1]!.waybillNo });
      // Nothing drawn within 2 mm of the label's edge.
      expect(darkOutside(img, { x: 2, y: 2, width: 96, height: 146 })).toBe(0);
    }
  });

  it('the recipient (Chinese) and the sender (Japanese) are text; the replacement carries its B', () => {
    const one = pdfText(file, 1).replace(/\s+/g, '');
    expect(one).toContain('张三丰');
    expect(one).toContain('北京市朝阳区建国路88号');
    expect(one).toContain('東京都千代田区丸の内1-1-1');
    expect(one).toContain('山田太郎');
    expect(one).toContain('明治奶粉800g×2');
    expect(one).toContain('Pieces:3');
    expect(one).toContain('2026-11-2417:40');
    expect(one).not.toMatch(/(^|[^A-Z])B([^a-z]|$)/);
    expect(pdfText(file, 3)).toMatch(/\bB\b/);
  });

  it('a 200-character address is printed whole and stays inside its box', () => {
    const two = pdfText(file, 2).replace(/\s+/g, '');
    expect(two).toContain(longAddress);
    const img = renderPage(file, 2);
    const a = LAYOUT.address;
    // The band between the address box and the rule under it stays blank.
    const band = { x: a.x, y: a.y + a.height + 0.2, width: a.width, height: 1.2 };
    expect(darkInside(img, band)).toBe(0);
    // ...and the address box itself is written in (the check above is not of an empty page).
    expect(darkInside(img, a)).toBeGreaterThan(1000);
  });
});

describe('product label', () => {
  it('every JAN reads back from its barcode (EAN-13 and EAN-8), a page per five items', async () => {
    const file = path.join(dir, 'p.pdf');
    const many = Array.from({ length: 7 }, (_, i) => {
      const d = `49${String(10_000_000_00 + i)}`;
      return { name: `商品 ${i}`, jan: d + eanCheckDigit(d), quantity: i + 1 };
    });
    const orders = [order(1), order(4, { items: many })];
    await renderLabels({ kind: 'product', orders, printedAt: '2026-11-24 17:40', fontDir: FONTS }, file);
    expect(pdfPages(file)).toBe(1 + Math.ceil(many.length / PRODUCT_ROWS));
    const p = LAYOUT.product;
    const box = (i: number) => ({ x: 4, y: p.top + i * p.rowHeight, width: p.barcodeWidth, height: p.barcodeHeight });
    const first = renderPage(file, 1);
    expect(decodeBox(first, box(0))).toEqual({ format: 'EAN_13', text: jan13 });
    expect(decodeBox(first, box(1))).toEqual({ format: 'EAN_8', text: jan8 });
    for (let page = 0; page < 2; page++) {
      const img = renderPage(file, 2 + page);
      const items = many.slice(page * PRODUCT_ROWS, (page + 1) * PRODUCT_ROWS);
      for (let i = 0; i < items.length; i++) expect(decodeBox(img, box(i))?.text).toBe(items[i]!.jan);
    }
    expect(pdfText(file, 3).replace(/\s+/g, '')).toContain('商品6×7');
  });

  it('a missing font says what to install', async () => {
    await expect(
      renderLabels(
        { kind: 'labelA', orders: [order(1)], printedAt: 'x', fontDir: '/nonexistent' },
        path.join(dir, 'x.pdf'),
      ),
    ).rejects.toThrow(/fonts-noto-cjk/);
  });
});
