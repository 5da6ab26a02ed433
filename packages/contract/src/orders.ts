/**
 * Orders (spec §2 order pages, §4 statuses, §5 the order's rules, §7 "Order"): one file per use
 * case, gathered here as the `orders` module.
 */
export * from './orders.rows.ts';
export * from './orders.find.ts';
export * from './orders.one.ts';
export * from './orders.create.ts';
export * from './orders.attention.ts';
export * from './orders.id-cards.ts';
export * from './orders.warehouse.ts';
export * from './orders.bulk.ts';
