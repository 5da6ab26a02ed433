/**
 * What other modules use of batches: a module reaches another only through its index.ts (eslint
 * import-x zones, docs/decisions/2026-11-27-import-layering-lint.md).
 */
export { parseReferenceData } from './batches.repository.ts';
export { MAX_ROWS } from './batches.service.ts';
export { createParsePool, type ParsePool } from './parse-pool.ts';
export type { Issue, ParseJob } from './parse.protocol.ts';
export { decodeParsedOrders } from './parsed-orders.ts';
export { COLUMNS } from '../../domain/order-templates/template-columns.ts';
export { EXAMPLE_ORDER_NO, matchHeader } from '../../domain/order-templates/template-headers.ts';
export { TEMPLATES } from '../../domain/order-templates/templates.ts';
