import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { baseRow, fill, settle, template, upload } from './helpers.ts';

/**
 * Finding 8, uploaded cells: a cell holding NUL (written `_x0000_` in the sheet), a bidi
 * override or a lone surrogate is an error row of the preview, on its column, in the
 * uploader's language — not a clean preview that fails at commit with the database's text.
 */
let h: Harness;
let demo: string;
beforeAll(async () => {
  h = await createHarness({ now: new Date('2026-11-21T03:00:00Z') });
  demo = await h.login('demo');
});

describe('finding 8: uploaded cells get the text rule at preview', () => {
  it('NUL, bidi and lone-surrogate cells are error rows; line breaks in an address are kept', async () => {
    const tpl = await template(h, demo, 'download/importOrder');
    const file = await fill(tpl, [
      baseRow(1, { recipientName: '王_x0000_伟' }),
      baseRow(2, { itemName: '\u202egpj.exe' }),
      // A sheet is UTF-8: a lone surrogate can only arrive escaped.
      baseRow(3, { recipientAddress: '建国路_xD800_ 88 号' }),
      baseRow(4, { recipientAddress: '建国路 88 号\n2 单元' }),
    ]);
    for (const [lang, control] of [
      ['en', /control character/],
      ['zh-CN', /控制字符/],
    ] as const) {
      const up = await upload(
        h,
        'order/batch/createImport',
        demo,
        { channel: 'JP' },
        { name: 'o.xlsx', data: file },
        lang,
      );
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const p = await settle(h, demo, up.body.data.id, lang);
      expect(p, JSON.stringify(p.errors)).toMatchObject({
        status: 'preview',
        totalRows: 4,
        validRows: 1,
        invalidRows: 3,
      });
      const byRow = new Map<number, { columnTitle: string; message: string }>(p.errors.map((e: any) => [e.row, e]));
      expect(p.errors).toHaveLength(3);
      const [r1, r2, r3] = [...byRow.keys()].sort((a, b) => a - b).map((r) => byRow.get(r)!);
      expect(r1!.message).toMatch(control);
      expect(r1!.columnTitle).toMatch(/收件人|Recipient/i);
      expect(r2!.message).toMatch(lang === 'en' ? /text-direction/ : /文字方向/);
      expect(r3!.message).toMatch(lang === 'en' ? /broken character/ : /损坏的字符/);
    }
  });
});
