import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asTenant } from '../src/lib/fair-turns.ts';
import { readSheetRows } from '../src/lib/sheet-rows.ts';
import { sheetWorkbook } from './support/zip.ts';

/**
 * The small-sheet reader (lib/sheet-rows.ts) is shared by every customer's uploads (label B,
 * order changes, declarations…): it read one sheet at a time in arrival order, so a one-row
 * sheet of customer B waited behind all of customer A's big ones (issue 27). Now it waits for
 * nobody's big sheets, and A's later big sheets wait behind B's.
 */
/** `count` rows of a random text cell each (incompressible: the file's size follows its rows). */
function sheet(count: number) {
  const out: string[] = [];
  for (let r = 1; r <= count; r++)
    out.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${randomBytes(12).toString('hex')}</t></is></c></row>`);
  return sheetWorkbook(out.join(''));
}

function read(tenant: string, label: string, file: Buffer, finished: string[]) {
  return asTenant(tenant, () =>
    readSheetRows(file, 100_000).then((reply) => {
      finished.push(label);
      return reply.type;
    }),
  );
}

describe('sheet reader turns', () => {
  it("a one-row sheet of B is read before A's waiting big sheets", async () => {
    const big = sheet(30_000);
    expect(big.length).toBeGreaterThan(256 * 1024);
    await read('warm', 'warm', sheet(1), []); // module loading is not a turn's cost
    const finished: string[] = [];
    const types = await Promise.all([
      read('A', 'A1', big, finished),
      read('A', 'A2', big, finished),
      read('A', 'A3', big, finished),
      read('B', 'B1', sheet(1), finished),
    ]);
    expect(types.every((t) => t !== 'problem')).toBe(true);
    expect(finished.indexOf('B1')).toBeLessThan(finished.indexOf('A2'));
  }, 120_000);
});
