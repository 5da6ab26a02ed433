import { deflateSync, crc32 } from 'node:zlib';
import { sealRequest, openResponse } from '../aes-client.ts';
import { type Harness, multipart } from '../harness.ts';
import { blobCall } from '../plain-client.ts';
import { hashPassword } from '../../src/lib/crypto.ts';
import { DEMO_PASSWORD } from '../../src/seed/demo.ts';

/** An AES call as the console makes it: sealed body, `aes: 1` header; the answer opened. */
export async function aes(h: Harness, path: string, body: unknown, token: string, lang = 'en') {
  const r = await h.post(path, sealRequest(token, body), token, { aes: '1', 'accept-language': lang });
  const data =
    r.status === 200 && typeof r.body?.data === 'string' && r.body.iv ? openResponse(token, r.body) : r.body?.data;
  return { status: r.status, body: r.body, data: data as any, headers: r.headers };
}

/**
 * A sealed call that answers a file (workbook, PDF, zip) on success and JSON otherwise: the raw
 * bytes and headers as they came. `lang`: its Accept-Language, none when absent.
 */
export async function aesBlob(h: Harness, path: string, body: unknown, token: string, lang?: string) {
  return blobCall(h, path, sealRequest(token, body), token, { aes: '1', ...(lang ? { 'accept-language': lang } : {}) });
}

/** The multipart image upload: fields sealed as `data`/`iv`, the file plain. */
export async function uploadImage(
  h: Harness,
  token: string,
  file: { name: string; data: Buffer },
  fields: Record<string, unknown> = {},
  lang = 'en',
) {
  return aesUpload(h, 'item/image/upload', token, file, fields, lang);
}

/** A sealed multipart call (image, item sheet): fields sealed as `data`/`iv`, the file plain; the answer opened. */
export async function aesUpload(
  h: Harness,
  path: string,
  token: string,
  file: { name: string; data: Buffer },
  fields: Record<string, unknown> = {},
  lang = 'en',
) {
  const m = multipart(sealRequest(token, fields), file);
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': m.contentType, authorization: `Bearer ${token}`, aes: '1', 'accept-language': lang },
    payload: m.payload,
  });
  const body = res.json();
  const data = res.statusCode === 200 ? (openResponse(token, body) as any) : body.data;
  return { status: res.statusCode, body, data };
}

/** The bytes of an image (blob answer) with its status and type. */
export async function fetchImage(h: Harness, token: string, imageId: number) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/item/image',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, aes: '1' },
    payload: JSON.stringify(sealRequest(token, { imageId })),
  });
  return { status: res.statusCode, type: res.headers['content-type'], bytes: res.rawPayload };
}

function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real PNG of the given size (grey), optionally padded with an ancillary chunk to `padTo` bytes. */
export function png(width: number, height: number, padTo = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const small = width * height <= 4_000_000;
  const raw = small ? Buffer.alloc((width + 1) * height, 0x80) : Buffer.alloc(0);
  for (let y = 0; small && y < height; y++) raw[y * (width + 1)] = 0;
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  const idat = chunk('IDAT', deflateSync(raw));
  const iend = chunk('IEND', Buffer.alloc(0));
  const size = parts.reduce((n, p) => n + p.length, 0) + idat.length + iend.length;
  if (padTo > size) parts.push(chunk('tEXt', Buffer.alloc(padTo - size - 12, 0x61)));
  return Buffer.concat([...parts, idat, iend]);
}

/** The header of a baseline JPEG of the given size: SOI, APP0 (JFIF), SOF0; enough for the size reader. */
export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    1,
    0x11,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(64, 0), Buffer.from([0xff, 0xd9])]);
}

/** A customer outside the demo agent's book, with its own login. */
export async function outsider(h: Harness, name = 'outsider') {
  const iso = new Date().toISOString();
  const u = await h.db
    .insertInto('users')
    .values({
      name,
      display_name: name,
      password_hash: await hashPassword(DEMO_PASSWORD),
      role: 'customer',
      customer_id: null,
      created_at: iso,
      password_changed_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const c = await h.db
    .insertInto('customers')
    .values({ code: name.toUpperCase(), name, agent_user_id: null, created_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.db.updateTable('users').set({ customer_id: c.id }).where('id', '=', u.id).execute();
  return { customerId: c.id, token: await h.login(name) };
}

/** EAN-13 with its check digit from 12 data digits. */
export function jan13(data12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(data12[i]) * (i % 2 === 0 ? 1 : 3);
  return data12 + ((10 - (sum % 10)) % 10);
}

let serial = 0;
/** A fresh valid JAN (prefix 45) for each call in a file. */
export const freshJan = () =>
  jan13(`45${String(Date.now() % 1e6).padStart(6, '0')}${String(++serial).padStart(4, '0')}`);

export const itemBody = (over: Record<string, unknown> = {}) => ({
  jan: freshJan(),
  nameZh: '测试洗面奶',
  nameEn: 'Test cleanser',
  nameJa: 'テスト洗顔料',
  specs: '120g',
  essentials: '品牌：测试；型号：A1',
  categoryId: 2,
  netWeightG: 120,
  clearancePrice: '45.5',
  declarationPrice: '800',
  origin: 'JP',
  taxCode: '04010100',
  ...over,
});
