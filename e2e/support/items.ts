/** Item fixtures for the item specs: unique valid JANs, real PNG bytes, items made through the AES API. */
import { deflateSync } from 'node:zlib';
import { expect, type APIRequestContext } from '@playwright/test';
import { eanCheckDigit } from '@console/contract';
import { aesApi } from './aes.ts';

let seq = 0;
/** A valid EAN-13 JAN (prefix 49) unique to this run. */
export function uniqueJan(): string {
  const base = `49${String(Date.now() % 1e8).padStart(8, '0')}${String(seq++ % 100).padStart(2, '0')}`;
  return base + eanCheckDigit(base);
}
/** The same JAN with a wrong last digit, and the digit the check wants. */
export const wrongDigit = (jan: string) => `${jan.slice(0, -1)}${(Number(jan.at(-1)) + 1) % 10}`;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real w×h RGB PNG of one colour. */
export function png(w = 64, h = 48, rgb: [number, number, number] = [240, 134, 51]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export type ItemRow = {
  id: number;
  jan: string;
  nameZh: string;
  status: 'pending' | 'approved' | 'failed';
  reason: string | null;
  clearancePrice: string;
  imageId: number | null;
  group: string;
};
export type ItemDetail = ItemRow & {
  history: { kind: string; note: string | null }[];
  adjustments: { id: number; status: string; changes: { field: string; before: unknown; after: unknown }[] }[];
};

export async function createItem(request: APIRequestContext, token: string, over: Record<string, unknown> = {}) {
  const r = await aesApi<ItemRow>(
    request,
    'item/create',
    {
      jan: uniqueJan(),
      nameZh: '测试商品',
      nameEn: 'Test item',
      netWeightG: 120,
      clearancePrice: '35.00',
      declarationPrice: '500',
      origin: 'JP',
      categoryId: 2,
      ...over,
    },
    token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

export async function listItems(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const r = await aesApi<{ total: number; list: ItemRow[] }>(request, 'items', body, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

export async function itemDetail(request: APIRequestContext, token: string, id: number) {
  const r = await aesApi<ItemDetail>(request, 'item', { id }, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}
