/**
 * ExcelJS on first use. It is about 150 modules and most of a second to load, which every
 * process paid at start (the server, each test file's fork) for the few calls that build or read a
 * whole workbook: templates, error workbooks, the ID-card upload, the streaming writer of every
 * download (where a worker thread paid 0.2 s for it). Types come from `import type`.
 */
export async function excel(): Promise<typeof import('exceljs')> {
  return (await import('exceljs')).default;
}
