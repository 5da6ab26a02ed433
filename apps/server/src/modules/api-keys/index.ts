/**
 * What other modules use of API keys: a module reaches another only through its index.ts (eslint
 * import-x zones, docs/decisions/2026-11-27-import-layering-lint.md).
 */
export { KEY_START } from './api-keys.service.ts';
