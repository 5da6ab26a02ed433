import { allCalls, fieldErrors } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkErrorKey, createHarness, type Harness } from '../harness.ts';

/**
 * Issue 36, item 10: a malformed upload gets one answer on every upload call, in the declared 422
 * shape (`data`: field → messages). A second file part answered `{"key":"onlyOneFile","data":null}`
 * (the schema's `data` is an object), and a file part without a file name was refused by each call
 * in words of its own (or read as a text field named `file`).
 */
const uploads = allCalls.filter((c) => c.kind === 'multipart');
const workbook = Buffer.from('PK\u0003\u0004 a file');

/** A multipart body from raw part headers, so a part can lack what a browser always sends. */
function body(parts: { headers: string; data: Buffer | string }[]) {
  const boundary = `----upload${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts)
    chunks.push(Buffer.from(`--${boundary}\r\n${p.headers}\r\n\r\n`), Buffer.from(p.data), Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
const filePart = (disposition: string, type = 'application/octet-stream') => ({
  headers: `Content-Disposition: form-data; ${disposition}\r\nContent-Type: ${type}`,
  data: workbook,
});
const field = (name: string, value: string) => ({
  headers: `Content-Disposition: form-data; name="${name}"`,
  data: value,
});

const CASES: [string, ReturnType<typeof body>, string][] = [
  [
    'two file parts',
    body([
      field('customerId', '1'),
      filePart('name="file"; filename="a.xlsx"'),
      filePart('name="file"; filename="b.xlsx"'),
    ]),
    'Upload one file at a time.',
  ],
  [
    'a second file in another field',
    body([filePart('name="file"; filename="a.xlsx"'), filePart('name="other"; filename="b.png"', 'image/png')]),
    'Upload one file at a time.',
  ],
  [
    'a file part without a file name',
    body([field('customerId', '1'), filePart('name="file"')]),
    'The uploaded file has no file name. Choose the file again and retry.',
  ],
  [
    'a file part of a workbook type without a file name',
    body([filePart('name="file"', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')]),
    'The uploaded file has no file name. Choose the file again and retry.',
  ],
  [
    'a file part with an empty file name',
    body([filePart('name="file"; filename=""')]),
    'The uploaded file has no file name. Choose the file again and retry.',
  ],
];

describe('a malformed upload: one answer on every upload call, in the declared 422 shape', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness();
    // The admin holds every route, so every upload call reads its body.
    token = await h.login('admin');
  });

  it('the contract has the upload calls this test goes through', () => {
    expect(uploads.length).toBeGreaterThanOrEqual(12);
  });

  it.each(uploads.map((c) => [c.path]))('%s', async (path) => {
    for (const [label, b, message] of CASES) {
      for (const [lang, words] of [
        ['en', message],
        ['zh-CN', null],
      ] as const) {
        const res = await h.app.inject({
          method: 'POST',
          url: `/api/${path}`,
          headers: { 'content-type': b.type, authorization: `Bearer ${token}`, 'accept-language': lang },
          payload: b.payload,
        });
        const answer = res.json();
        checkErrorKey(path, res.statusCode, answer);
        expect({ label, status: res.statusCode, key: answer.key }).toEqual({
          label,
          status: 422,
          key: 'validationFailed',
        });
        // The declared shape of a 422's data, and the one field it names.
        expect(fieldErrors.safeParse(answer.data).success, label).toBe(true);
        expect(Object.keys(answer.data), label).toEqual(['file']);
        if (words) expect(answer.data.file, label).toEqual([words]);
        else expect(answer.data.file[0], label).toMatch(/一次只能上传一个文件|没有文件名/);
      }
    }
  });
});
