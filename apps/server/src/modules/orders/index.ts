/**
 * What other modules use of orders: a module reaches another only through its index.ts (eslint
 * import-x zones, docs/decisions/2026-11-27-import-layering-lint.md).
 */
export { CLEARANCE_REFUSALS, type ClearanceRefusal, clearanceReasonKey, isClearanceRefusal } from './order-errors.ts';
export { fromMinor } from '../../domain/pricing/index.ts';
export { chinaDayStart, numberColumn } from './orders.list.repository.ts';
export { createOrdersRepository } from './orders.repository.ts';
export { presentTax } from './orders.presenter.ts';
