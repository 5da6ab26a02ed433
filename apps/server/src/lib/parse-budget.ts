/**
 * How long reading an uploaded workbook may take: a base for starting the worker and the
 * container checks, plus a share per MiB of the upload, never past the configured cap. A flat
 * limit (60 s for small sheets, 300 s for batch imports) let a 380 KB crafted file hold a worker
 * as long as a 30 MiB honest one, while the uploads behind it waited (issue 26, finding 2).
 * Far above what honest files need (a 100,000-row parse takes about 2.4 s, decisions.md): the
 * 15 s base is for a worker's start on a machine as loaded as the shared one here (load 20+ on
 * two cores made it take seconds).
 */
export const PARSE_BASE_MS = 15_000;
export const PARSE_MS_PER_MIB = 10_000;

export function parseBudgetMs(bytes: number, capMs: number): number {
  return Math.min(capMs, Math.round(PARSE_BASE_MS + (PARSE_MS_PER_MIB * bytes) / (1024 * 1024)));
}
