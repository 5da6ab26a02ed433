import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The files module's rule (issue 27): one owner of the `files` rows and of the store's bytes.
 * Outside the module no source file inserts, re-kinds or deletes `files` rows, touches
 * `file_blobs`, builds or imports a store, or calls a store's put/get/stream/remove; services are
 * given a `Files` (lib/files.ts) instead. Read from the source, so a new insert site fails here
 * before review.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');
const MODULE = new Set([
  'lib/files.ts',
  'lib/files.repository.ts',
  'lib/files.quota.ts',
  'lib/files.retention.ts',
  'lib/generated-files.ts',
  'lib/storage.ts',
  'lib/storage-config.ts',
  'lib/storage-database.ts',
  'lib/storage-s3.ts',
]);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const RULES: { what: string; re: RegExp; except?: string[] }[] = [
  { what: 'writes files rows', re: /\b(insertInto|updateTable|deleteFrom)\(\s*['"]files['"]\s*\)/ },
  { what: 'touches file_blobs', re: /['"]file_blobs['"]/ },
  { what: "calls a store's put/get/stream/remove", re: /\b(storage|store|files)\.(put|get|stream|remove)\(/ },
  {
    what: 'imports the Storage interface',
    re: /import[^;]*\bStorage\b[^;]*from '[./]*lib\/storage\.ts'|\bStorage\b[^;]*from '\.\/storage\.ts'/,
    except: ['app.ts'],
  },
  { what: 'imports a store', re: /from '[./]*(lib\/)?storage-(database|s3)\.ts'/ },
  // app.ts builds the one store (or takes a test's) and hands it to the files module.
  { what: 'builds a store', re: /\bcreateStorage\(/, except: ['app.ts'] },
];

describe('the files module owns the files rows and the bytes', () => {
  it('no source outside it writes files rows or reaches the store', () => {
    const offences: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      // Migrations are frozen history: they reshaped rows before the module existed.
      if (MODULE.has(rel) || rel.startsWith('db/migrations/')) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const rule of RULES) {
        if (rule.except?.includes(rel)) continue;
        const lines = text.split('\n');
        lines.forEach((line, i) => {
          if (rule.re.test(line)) offences.push(`${rel}:${i + 1} ${rule.what}`);
        });
      }
    }
    expect(offences).toEqual([]);
  });
});
