/**
 * The zip bombs of bench:import (issue 10 #2, #3): the peak RSS of a fresh server (its own process
 * and SQLite database) while four bombs are uploaded at once. Run by bench/import.ts after the
 * imports, unless `--alone` or `--pg`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { COLUMNS } from '../src/domain/order-templates/template-columns.ts';
import { headerText } from '../src/domain/order-templates/template-headers.ts';
import { TEMPLATES } from '../src/domain/order-templates/templates.ts';
import { httpClient } from '../test/harness.ts';

/** A stored or deflated zip of the given entries; `lie` writes 1 KiB as every entry's sizes. */
function zipOf(entries: { name: string; data: Buffer; raw?: number }[], lie = false) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const deflated = zlib.deflateRawSync(e.data, { level: 9 });
    const name = Buffer.from(e.name);
    const crc = zlib.crc32(e.data);
    const size = lie ? 1024 : (e.raw ?? e.data.length);
    const csize = deflated.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(csize, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(csize, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += 30 + name.length + csize;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The parts every workbook needs around its first sheet. */
function workbookParts(sheet: Buffer) {
  const x = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
  return [
    {
      name: '[Content_Types].xml',
      data: x(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: x(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: x(
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="orders" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: x(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
  ];
}

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** Column letters of a 1-based column number (bijective base 26). */
function columnLetters(n: number) {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Sheet bomb: about 1 MB that inflates to 600 MiB of one repeated row, sizes in the directory lying. */
function sheetBomb() {
  const header = TEMPLATES.import.columns
    .map((k, i) => `<c r="${columnLetters(i + 1)}1" t="inlineStr"><is><t>${headerText(COLUMNS[k])}</t></is></c>`)
    .join('');
  const row = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';
  const filler = Buffer.alloc(Math.floor((600 * 1048576) / row.length) * row.length, row);
  const sheet = Buffer.concat([
    Buffer.from(`${SHEET_HEAD}<row r="1">${header}</row>`),
    filler,
    Buffer.from(SHEET_TAIL),
  ]);
  return zipOf(workbookParts(sheet), true);
}

/** Column bomb: one cell at column 2^31 (a 2 KB workbook). */
function columnBomb() {
  const sheet = Buffer.from(
    `${SHEET_HEAD}<row r="1"><c r="${columnLetters(2 ** 31)}1" t="inlineStr"><is><t>x</t></is></c></row>${SHEET_TAIL}`,
  );
  return zipOf(workbookParts(sheet));
}

const rssOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

/**
 * A fresh server (its own process and database) idles, then four bombs — two of each kind — are
 * uploaded at once; its peak RSS (VmHWM) is read while they are parsed (at most 60 s).
 */
export async function bombs() {
  const bombDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bombs-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(process.execPath, [fileURLToPath(new URL('../src/server.ts', import.meta.url))], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: path.join(bombDir, 'bombs.sqlite'),
      DATA_DIR: bombDir,
      WEB_DIST: path.join(bombDir, 'none'),
      DEMO_SEED: 'true',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
  const http = httpClient(`http://127.0.0.1:${port}/api`);
  try {
    await http.ready(60_000);
    const token = await http.login('demo');
    const files = [sheetBomb(), columnBomb()];
    console.log(
      `
zip bombs: sheet bomb ${(files[0]!.length / 1048576).toFixed(1)} MB (600 MiB inflated, sizes lying), column bomb ${files[1]!.length} B (one cell at column 2^31)`,
    );
    await new Promise((r) => setTimeout(r, 2000));
    const idle = rssOf(server.pid!).rss;
    // Resets the kernel's peak (VmHWM) to now, so start-up does not count.
    fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid!).rss)), 50);
    const t0 = performance.now();
    const answers = await Promise.all(
      [0, 1, 0, 1].map(async (k) => {
        const r = await http
          .upload('order/batch/createImport', token, { name: 'bomb.xlsx', data: files[k]! }, { channel: 'JP' })
          .catch((e: Error) => ({ status: e.name, body: {} as { data?: { id?: number } } }));
        return { status: r.status, id: (r.body as { data?: { id?: number } }).data?.id };
      }),
    );
    // Batches that were accepted: wait (60 s at most) for their parse to end.
    const states: string[] = [];
    for (const a of answers) {
      let state = `HTTP ${a.status}`;
      // Each accepted batch is looked at at least once, even when the 60 s have passed.
      for (let first = true; a.id && (first || performance.now() - t0 < 60_000); first = false) {
        const p = (await http.post('order/batch/progress', { id: a.id }, token)).body as {
          data: { status: string; errorMessage: string | null };
        };
        state = `${p.data.status}${p.data.errorMessage ? ` (${p.data.errorMessage.slice(0, 60)})` : ''}`;
        if (p.data.status !== 'parsing') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      states.push(state);
    }
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(server.pid!).peak);
    console.log(`  outcomes after ${((performance.now() - t0) / 1000).toFixed(1)} s: ${states.join('; ')}`);
    console.log(
      `  server RSS idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB: +${(peak - idle).toFixed(0)} MiB (goal <= 300 MiB above idle)`,
    );
  } finally {
    server.kill('SIGKILL');
    fs.rmSync(bombDir, { recursive: true, force: true });
  }
}
