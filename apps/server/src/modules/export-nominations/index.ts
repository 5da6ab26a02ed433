/**
 * What other modules use of export-nominations: a module reaches another only through its index.ts
 * (eslint import-x zones, docs/decisions/2026-11-27-import-layering-lint.md).
 */
export { liveExportNomination } from './export-nominations.repository.ts';
