import CFB from 'cfb';

/**
 * Builds real BIFF8 .xls files for tests: a `Workbook` stream of records made here,
 * wrapped in a compound file by `cfb`. Only what the reader under test understands,
 * plus switches to produce the cases it must survive (CONTINUE splits inside a string,
 * an encryption header, a BIFF5 stream, truncation).
 */
export type XlsCellValue = string | number | { rk: number } | { label: string } | { mulrk: number[] };
export interface XlsSheet {
  name: string;
  /** Rows of cells from column 0; null leaves a cell empty. */
  rows: (XlsCellValue | null)[][];
  /** 0 = worksheet, 2 = chart (passed over by the reader). */
  kind?: number;
}
export interface XlsOptions {
  /** Largest SST/CONTINUE record body: small values force strings to split across CONTINUE records. */
  sstRecordMax?: number;
  /** Put a FILEPASS record in the globals (a password-protected workbook). */
  encrypted?: boolean;
  /** Name the stream 'Book' with a BIFF5 BOF (Excel 5/95). */
  biff5?: boolean;
  /** Drop the last N bytes of the Workbook stream. */
  truncate?: number;
}

const rec = (type: number, body: Buffer) => {
  const h = Buffer.alloc(4);
  h.writeUInt16LE(type, 0);
  h.writeUInt16LE(body.length, 2);
  return Buffer.concat([h, body]);
};
const u16 = (...v: number[]) => {
  const b = Buffer.alloc(v.length * 2);
  v.forEach((x, i) => b.writeUInt16LE(x, i * 2));
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0, 0);
  return b;
};
const bof = (version: number, dt: number) => rec(0x0809, Buffer.concat([u16(version, dt), Buffer.alloc(12)]));
const EOF = rec(0x000a, Buffer.alloc(0));
const wide = (s: string) => [...s].some((c) => c.charCodeAt(0) > 0xff);
const encode = (s: string, high: boolean) => Buffer.from(s, high ? 'utf16le' : 'latin1');

/** An RK value for an integer that fits 30 bits (fInt set), or ×100 when `x100`. */
export const rkInt = (n: number, x100 = false) => ((n << 2) | 0x02 | (x100 ? 0x01 : 0)) >>> 0;

/** SST plus CONTINUE records, splitting inside strings as Excel does (a width byte opens each continued part). */
function sstRecords(strings: string[], max: number): Buffer[] {
  const bodies: Buffer[] = [];
  let cur: Buffer[] = [u32(strings.length), u32(strings.length)];
  let size = 8;
  const flush = () => {
    bodies.push(Buffer.concat(cur));
    cur = [];
    size = 0;
  };
  for (const s of strings) {
    // The 3-byte header and the first character never split.
    if (size + 3 + 2 > max) flush();
    const high = wide(s);
    cur.push(u16(s.length), Buffer.from([high ? 1 : 0]));
    size += 3;
    let rest = s;
    let h = high;
    for (;;) {
      const room = Math.floor((max - size) / (h ? 2 : 1));
      const part = rest.slice(0, room);
      cur.push(encode(part, h));
      size += part.length * (h ? 2 : 1);
      rest = rest.slice(part.length);
      if (!rest) break;
      flush();
      // A continued part states its own width: compressed when it can be.
      h = wide(rest);
      cur.push(Buffer.from([h ? 1 : 0]));
      size = 1;
    }
  }
  flush();
  return bodies.map((b, i) => rec(i === 0 ? 0x00fc : 0x003c, b));
}

export function buildXls(sheets: XlsSheet[], opts: XlsOptions = {}): Buffer {
  const version = opts.biff5 ? 0x0500 : 0x0600;
  const strings: string[] = [];
  const index = new Map<string, number>();
  const sst = (s: string) => {
    if (!index.has(s)) index.set(s, strings.push(s) - 1);
    return index.get(s)!;
  };
  const bodies = sheets.map((sh) => {
    const cells: Buffer[] = [];
    sh.rows.forEach((row, r) =>
      row.forEach((v, c) => {
        if (v === null) return;
        if (typeof v === 'string') cells.push(rec(0x00fd, Buffer.concat([u16(r, c, 15), u32(sst(v))])));
        else if (typeof v === 'number') {
          const d = Buffer.alloc(8);
          d.writeDoubleLE(v, 0);
          cells.push(rec(0x0203, Buffer.concat([u16(r, c, 15), d])));
        } else if ('rk' in v) cells.push(rec(0x027e, Buffer.concat([u16(r, c, 15), u32(v.rk)])));
        else if ('label' in v) {
          const high = wide(v.label);
          cells.push(
            rec(
              0x0204,
              Buffer.concat([u16(r, c, 15, v.label.length), Buffer.from([high ? 1 : 0]), encode(v.label, high)]),
            ),
          );
        } else {
          const parts = v.mulrk.flatMap((x) => [u16(15), u32(x)]);
          cells.push(rec(0x00bd, Buffer.concat([u16(r, c), ...parts, u16(c + v.mulrk.length - 1)])));
        }
      }),
    );
    return Buffer.concat([bof(version, 0x0010), ...cells, EOF]);
  });
  const boundsheet = (offset: number, sh: XlsSheet) =>
    rec(
      0x0085,
      Buffer.concat([u32(offset), Buffer.from([0, sh.kind ?? 0, sh.name.length, 0]), Buffer.from(sh.name, 'latin1')]),
    );
  const head = [
    bof(version, 0x0005),
    ...(opts.encrypted ? [rec(0x002f, Buffer.concat([u16(1), Buffer.alloc(52)]))] : []),
  ];
  const tail = [...(strings.length ? sstRecords(strings, opts.sstRecordMax ?? 8224) : []), EOF];
  // BOUNDSHEET records point at their sheet's BOF: sizes first, then offsets.
  const sheetsLen = sheets.reduce((n, sh) => n + boundsheet(0, sh).length, 0);
  let offset = [...head, ...tail].reduce((n, b) => n + b.length, 0) + sheetsLen;
  const bounds = sheets.map((sh, i) => {
    const b = boundsheet(offset, sh);
    offset += bodies[i]!.length;
    return b;
  });
  let stream = Buffer.concat([...head, ...bounds, ...tail, ...bodies]);
  if (opts.truncate) stream = stream.subarray(0, stream.length - opts.truncate);
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, opts.biff5 ? 'Book' : 'Workbook', stream);
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}
