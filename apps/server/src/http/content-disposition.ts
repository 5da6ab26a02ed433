/**
 * The one Content-Disposition of every download (register-call sends each `Download` through
 * it), finding 13 of issue 10. RFC 6266 with the RFC 5987 `filename*` (UTF-8, percent-encoded)
 * and a plain ASCII `filename` for clients that do not read it.
 *
 * File names can come from users (an upload's name, a batch number typed in a sheet), so
 * control characters and bidirectional controls are dropped first: U+202E turns
 * "invoice‮xslx.exe" into "invoiceexe.xlsx" on screen, and a line break could end the header.
 */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function contentDisposition(filename: string): string {
  // toWellFormed: a lone surrogate would make encodeURIComponent throw (a 500).
  const name = filename.toWellFormed().replace(UNSAFE, '').trim() || 'download';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * as they are; RFC 5987's attr-char does not allow them,
  // and ' is the delimiter of the charset and language.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
