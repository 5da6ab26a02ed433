import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * A minimal .zip writer for tests (deflate, UTF-8 names): enough to build the upload
 * bundles the server reads, without a zip package.
 */
export function zipFiles(
  files: ({ name: string; data: Buffer; store?: boolean } | { name: string; deflated: Buffer; declaredSize: number })[],
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    // A pre-deflated body with a declared size of our choosing: a zip whose directory lies.
    const lying = 'deflated' in f;
    const store = !lying && f.store === true;
    const body = lying ? f.deflated : store ? f.data : deflateRawSync(f.data);
    const crc = lying ? 0 : crc32(f.data);
    const size = lying ? f.declaredSize : f.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(store ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(store ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** `bytes` of `unit` repeated, deflated chunk by chunk (the inflated text is never whole here). */
export async function deflatedRepeat(prefix: string, unit: string, bytes: number, suffix = ''): Promise<Buffer> {
  const z = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((r) => z.on('end', r));
  const block = Buffer.from(unit.repeat(Math.ceil((1 << 20) / unit.length)));
  z.write(prefix);
  for (let n = 0; n < bytes; n += block.length) {
    if (!z.write(block)) await new Promise((r) => z.once('drain', r));
  }
  z.end(suffix);
  await done;
  return Buffer.concat(out);
}

/**
 * An xlsx whose first sheet declares `declaredSize` bytes in the central directory and
 * really inflates to about `realBytes`: rows of one number cell, never closing the sheet.
 */
export async function lyingWorkbook(realBytes: number, declaredSize = 4096): Promise<Buffer> {
  const sheet = await deflatedRepeat(
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    '<row r="2"><c r="A2"><v>1</v></c></row>',
    realBytes,
    '</sheetData></worksheet>',
  );
  return zipFiles([...workbookParts(), { name: 'xl/worksheets/sheet1.xml', deflated: sheet, declaredSize }]);
}

/** The parts of an xlsx besides its one sheet: content types, workbook, relationships. */
function workbookParts() {
  const text = (s: string) => Buffer.from(s);
  return [
    {
      name: '[Content_Types].xml',
      data: text(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: text(
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="s" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: text(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    },
  ];
}

/** An honest xlsx of one sheet: `rows` is the `<sheetData>` body. */
export function sheetWorkbook(rows: string): Buffer {
  const sheet = Buffer.from(
    `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
  );
  return zipFiles([...workbookParts(), { name: 'xl/worksheets/sheet1.xml', data: sheet }]);
}
