import fs from 'node:fs';
import { nextTurn } from '../db/next-turn.ts';

/**
 * A PDF drawn into a file: the one way the renderers (labels, the MDA's PD, pickup slips) write
 * theirs (issue 40 item 5; each had its own copy of this loop).
 *
 * pdfkit draws synchronously: without a turn of the event loop the file stream never writes and
 * every chunk of the PDF waits in memory (16 MiB a 1,000 labels, in small buffers). `draw` gets
 * `letWrite`, to await every few pages: it waits for the stream to drain when it asks to, and
 * otherwise gives the loop one turn. Resolves when the file is complete; a failure of the drawing,
 * of the document or of the file rejects once (the file's at the drawing's next `letWrite`), and
 * none is left as an unhandled rejection.
 */
export async function writePdf(
  doc: PDFKit.PDFDocument,
  out: string,
  draw: (letWrite: () => Promise<void>) => Promise<void> | void,
): Promise<void> {
  const file = fs.createWriteStream(out);
  const done = new Promise<void>((resolve, reject) => {
    file.on('finish', resolve);
    file.on('error', reject);
    doc.on('error', reject);
  });
  // Awaited below; marked handled now, since the file can fail while the drawing goes on.
  done.catch(() => {});
  doc.pipe(file);
  // A file that failed ends the drawing at its next turn (a 'drain' would never come).
  const letWrite = () =>
    Promise.race([file.writableNeedDrain ? new Promise<void>((r) => file.once('drain', () => r())) : nextTurn(), done]);
  try {
    await draw(letWrite);
  } catch (e) {
    doc.end();
    throw e;
  }
  doc.end();
  await done;
}

/**
 * Empties pdfkit's per-font layout cache. It keeps every string it measured for the document's
 * life: with a different address and number on every label it grew about 55 MiB a 1,000 labels.
 * Turning it off (`fontLayoutCache: false`) made labels 4× slower, since fitting a box measures
 * the same text several times, so renderers empty it every so many pages instead.
 */
export function forgetLayouts(doc: PDFKit.PDFDocument) {
  const fonts = (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: object }> })._fontFamilies;
  for (const f of Object.values(fonts ?? {})) if (f?.layoutCache) f.layoutCache = Object.create(null);
}
