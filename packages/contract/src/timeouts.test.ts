/**
 * Spec §7 and §11: every call times out after 30 s in the client, except "batch creation,
 * downloads, printing and export declarations", and the calls §7 marks "no timeout". The rule
 * is written once here from the spec's words, so a new call is pinned the day it is added.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS } from './call.ts';
import { allCalls } from './index.ts';

/** §7's explicit "(no timeout)" marks. */
const MARKED = new Set([
  'orderReview/create',
  'orderReview/downloadInfoItem',
  'file/downloadSteam',
  'bill/downloadXlsx',
  'order/batch/download/excel',
]);

function untimed(def: (typeof allCalls)[number]): boolean {
  if (MARKED.has(def.path)) return true;
  // Downloads: every blob answer, whatever its size.
  if (def.kind === 'blob') return true;
  // Batch creation: every upload that creates a batch (the multipart calls).
  if (def.kind === 'multipart') return true;
  // Printing.
  if (def.path === 'order/printLabelA') return true;
  // Confirming or applying an uploaded sheet creates or changes its rows: batch creation too.
  if (/\/(confirm|apply)$/.test(def.path)) return true;
  // Export declarations, the list and every change of one.
  if (/^exportDeclarations?(\/|$)/.test(def.path)) return true;
  return false;
}

describe('client timeouts (spec §7, §11)', () => {
  it('the default is 30,000 ms', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
  });
  it('batch creation, downloads, printing and export declarations have none; every other call has the default', () => {
    const wrong = allCalls
      .map((def) => ({ path: def.path, timeout: def.timeout, want: untimed(def) ? 0 : DEFAULT_TIMEOUT_MS }))
      .filter((c) => c.timeout !== c.want);
    expect(wrong).toEqual([]);
  });
});
