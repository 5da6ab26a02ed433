import CFB from 'cfb';

/**
 * The first worksheet of an old binary Excel workbook (.xls, BIFF8, Excel 97–2003),
 * enough for a list of numbers: text and number cells, no formats, formulas or dates.
 *
 * The compound-file container is read by `cfb` (SheetJS, maintained); the BIFF records
 * inside the `Workbook` stream by the small reader below, which knows only BOF/EOF,
 * BOUNDSHEET, FILEPASS, SST (+CONTINUE), LABELSST, LABEL, NUMBER, RK and MULRK. Every
 * read is bounds-checked: a damaged or crafted file is an `XlsError`, never a crash.
 */
export type XlsProblem = 'encrypted' | 'corrupt' | 'notBiff8';
export class XlsError extends Error {
  readonly problem: XlsProblem;
  constructor(problem: XlsProblem) {
    super(`xls: ${problem}`);
    this.problem = problem;
  }
}
export interface XlsCell {
  row: number;
  col: number;
  value: string;
}

const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
export const isCfb = (buf: Buffer) => buf.length >= 8 && buf.subarray(0, 8).equals(CFB_MAGIC);

const R = {
  BOF: 0x0809,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
} as const;
const BIFF8 = 0x0600;
const DT_GLOBALS = 0x0005;
const DT_WORKSHEET = 0x0010;

const corrupt = () => new XlsError('corrupt');

interface Rec {
  type: number;
  data: Buffer;
  /** Stream offset of the record header (BOUNDSHEET points at a BOF by this). */
  at: number;
}
function* records(stream: Buffer, from: number): Generator<Rec> {
  let p = from;
  while (p + 4 <= stream.length) {
    const type = stream.readUInt16LE(p);
    const len = stream.readUInt16LE(p + 2);
    if (p + 4 + len > stream.length) throw corrupt();
    yield { type, data: stream.subarray(p + 4, p + 4 + len), at: p };
    p += 4 + len;
  }
}

/** Reads across an SST record and its CONTINUE records, which may split a string's characters. */
class Segments {
  private seg = 0;
  private pos = 0;
  private readonly parts: Buffer[];
  constructor(parts: Buffer[]) {
    this.parts = parts;
  }
  private current(): Buffer {
    while (this.seg < this.parts.length && this.pos >= this.parts[this.seg]!.length) {
      this.seg++;
      this.pos = 0;
    }
    const b = this.parts[this.seg];
    if (!b) throw corrupt();
    return b;
  }
  u8(): number {
    const b = this.current();
    return b[this.pos++]!;
  }
  u16(): number {
    return this.u8() | (this.u8() << 8);
  }
  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }
  skip(n: number) {
    let left = n;
    while (left > 0) {
      const b = this.current();
      const take = Math.min(left, b.length - this.pos);
      this.pos += take;
      left -= take;
    }
  }
  /** `cch` characters; where a CONTINUE record starts mid-string, its first byte re-states the width. */
  chars(cch: number, highByte: boolean): string {
    let out = '';
    let left = cch;
    let high = highByte;
    while (left > 0) {
      if (this.seg < this.parts.length && this.pos >= this.parts[this.seg]!.length) {
        this.seg++;
        this.pos = 0;
        const b = this.parts[this.seg];
        if (!b || b.length < 1) throw corrupt();
        high = (b[this.pos++]! & 1) === 1;
      }
      const b = this.parts[this.seg];
      if (!b) throw corrupt();
      const width = high ? 2 : 1;
      const take = Math.min(left, Math.floor((b.length - this.pos) / width));
      if (take === 0) throw corrupt();
      const slice = b.subarray(this.pos, this.pos + take * width);
      out += high ? slice.toString('utf16le') : slice.toString('latin1');
      this.pos += take * width;
      left -= take;
    }
    return out;
  }
}

/** The shared string table: XLUnicodeRichExtendedString entries over SST + CONTINUE records. */
function readSst(parts: Buffer[]): string[] {
  const s = new Segments(parts);
  s.skip(4); // cstTotal
  const unique = s.u32();
  const strings: string[] = [];
  for (let i = 0; i < unique; i++) {
    const cch = s.u16();
    const flags = s.u8();
    const runs = flags & 0x08 ? s.u16() : 0;
    const ext = flags & 0x04 ? s.u32() : 0;
    strings.push(s.chars(cch, (flags & 0x01) === 1));
    s.skip(runs * 4 + ext);
  }
  return strings;
}

/** XLUnicodeString of a LABEL record (BIFF8): cch, flags, characters. */
function readLabel(d: Buffer, at: number): string {
  if (d.length < at + 3) throw corrupt();
  const cch = d.readUInt16LE(at);
  const high = (d[at + 2]! & 1) === 1;
  const end = at + 3 + cch * (high ? 2 : 1);
  if (end > d.length) throw corrupt();
  return d.subarray(at + 3, end).toString(high ? 'utf16le' : 'latin1');
}

/** RK: a 30-bit integer or the top 30 bits of a double, optionally ×100. */
export function rkValue(rk: number): number {
  let v: number;
  if (rk & 0x02) v = rk >> 2;
  else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    v = b.readDoubleLE(0);
  }
  return rk & 0x01 ? v / 100 : v;
}

/** A number as a person typed it: integers without exponent or ".0". */
const numberText = (n: number) =>
  Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : String(Number(n.toPrecision(15)));

function workbookStream(buf: Buffer): Buffer {
  let cfb: CFB.CFB$Container;
  try {
    cfb = CFB.read(buf, { type: 'buffer' });
  } catch {
    throw corrupt();
  }
  // A password-protected .xlsx is an OOXML package encrypted inside a compound file.
  if (CFB.find(cfb, 'EncryptedPackage') || CFB.find(cfb, 'EncryptionInfo')) throw new XlsError('encrypted');
  const entry = CFB.find(cfb, 'Workbook');
  if (!entry?.content?.length) {
    // Excel 5/95 keep a BIFF5 'Book' stream; anything else is not a workbook.
    throw CFB.find(cfb, 'Book') ? new XlsError('notBiff8') : corrupt();
  }
  return Buffer.from(entry.content as Uint8Array);
}

/**
 * The cells of the first worksheet, in stream order. `keep` picks the cells to collect
 * (a list of numbers needs column 0 only), so memory follows what is kept.
 */
export function readXlsFirstSheet(buf: Buffer, keep: (row: number, col: number) => boolean = () => true): XlsCell[] {
  if (!isCfb(buf)) throw corrupt();
  const stream = workbookStream(buf);

  // Workbook globals: BOF, then sheets, the shared strings and (if any) the encryption header.
  const it = records(stream, 0);
  const first = it.next();
  if (first.done || first.value.type !== R.BOF || first.value.data.length < 4) throw corrupt();
  if (first.value.data.readUInt16LE(0) !== BIFF8) throw new XlsError('notBiff8');
  if (first.value.data.readUInt16LE(2) !== DT_GLOBALS) throw corrupt();
  const sheets: { offset: number; kind: number }[] = [];
  let sst: Buffer[] | null = null;
  let inSst = false;
  let ended = false;
  for (const r of it) {
    if (r.type === R.CONTINUE && inSst) {
      sst!.push(r.data);
      continue;
    }
    inSst = false;
    if (r.type === R.FILEPASS) throw new XlsError('encrypted');
    if (r.type === R.BOUNDSHEET) {
      if (r.data.length < 6) throw corrupt();
      sheets.push({ offset: r.data.readUInt32LE(0), kind: r.data[5]! });
    } else if (r.type === R.SST) {
      sst = [r.data];
      inSst = true;
    } else if (r.type === R.EOF) {
      ended = true;
      break;
    }
  }
  if (!ended) throw corrupt();
  const strings = sst ? readSst(sst) : [];
  // The first worksheet (kind 0); chart and macro sheets are passed over.
  const sheet = sheets.find((s) => s.kind === 0);
  if (!sheet) return [];
  if (sheet.offset + 4 > stream.length) throw corrupt();

  const cells: XlsCell[] = [];
  const put = (row: number, col: number, value: string) => {
    if (keep(row, col)) cells.push({ row, col, value });
  };
  const sheetRecords = records(stream, sheet.offset);
  const bof = sheetRecords.next();
  if (bof.done || bof.value.type !== R.BOF || bof.value.data.length < 4) throw corrupt();
  if (bof.value.data.readUInt16LE(2) !== DT_WORKSHEET) throw corrupt();
  for (const { type, data: d } of sheetRecords) {
    if (type === R.EOF) return cells;
    if (type === R.BOF) throw corrupt(); // substreams do not nest in a worksheet
    if (type !== R.LABELSST && type !== R.LABEL && type !== R.NUMBER && type !== R.RK && type !== R.MULRK) continue;
    if (d.length < 6) throw corrupt();
    const row = d.readUInt16LE(0);
    const col = d.readUInt16LE(2);
    switch (type) {
      case R.LABELSST: {
        if (d.length < 10) throw corrupt();
        const s = strings[d.readUInt32LE(6)];
        if (s === undefined) throw corrupt();
        put(row, col, s);
        break;
      }
      case R.LABEL:
        put(row, col, readLabel(d, 6));
        break;
      case R.NUMBER:
        if (d.length < 14) throw corrupt();
        put(row, col, numberText(d.readDoubleLE(6)));
        break;
      case R.RK:
        if (d.length < 10) throw corrupt();
        put(row, col, numberText(rkValue(d.readUInt32LE(6))));
        break;
      case R.MULRK: {
        // rgrkrec (ixfe u16, rk u32) × n, then colLast u16.
        const n = (d.length - 6) / 6;
        if (!Number.isInteger(n) || n < 1) throw corrupt();
        for (let i = 0; i < n; i++) put(row, col + i, numberText(rkValue(d.readUInt32LE(4 + i * 6 + 2))));
        break;
      }
    }
  }
  throw corrupt(); // no EOF: truncated
}
