import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterEach, describe, expect, it } from 'vitest';
import { writePdf } from '../../src/lib/pdf-file.ts';

// The one PDF drain of the renderers (labels, MDA PD, pickup slips): a failure of the drawing or
// of the file rejects the render once, and nothing is left as an unhandled rejection.
describe('writePdf', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-file-'));
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  afterEach(() => expect(unhandled).toEqual([]));

  it('writes a whole PDF, many pages, giving the stream its turns', async () => {
    const out = path.join(dir, 'ok.pdf');
    const doc = new PDFDocument({ autoFirstPage: false });
    let turns = 0;
    await writePdf(doc, out, async (letWrite) => {
      for (let i = 0; i < 200; i++) {
        doc
          .addPage()
          .fontSize(12)
          .text(`page ${i + 1}`);
        await letWrite();
        turns++;
      }
    });
    const bytes = fs.readFileSync(out);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.subarray(-6).toString()).toContain('%%EOF');
    expect(turns).toBe(200);
  });

  it('a drawing that fails rejects with its error', async () => {
    const doc = new PDFDocument();
    await expect(
      writePdf(doc, path.join(dir, 'fails.pdf'), () => {
        throw new Error('drawing failed');
      }),
    ).rejects.toThrow('drawing failed');
    await new Promise((r) => setImmediate(r));
  });

  it('a file that cannot be written ends the drawing with its error', async () => {
    const doc = new PDFDocument({ autoFirstPage: false });
    const out = path.join(dir, 'missing', 'x.pdf');
    let pages = 0;
    await expect(
      writePdf(doc, out, async (letWrite) => {
        // Until the file's failure reaches the drawing: it must not draw on, nor wait for ever.
        for (;;) {
          doc.addPage().text(`page ${++pages}`);
          await letWrite();
        }
      }),
    ).rejects.toThrow(/ENOENT/);
    await new Promise((r) => setImmediate(r));
  });
});
