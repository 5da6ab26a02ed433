/**
 * The item catalogue (spec §2 item pages, §3 Item, §4 item statuses, §5 images, §7 "Item
 * (all AES)"). Every call here travels in the AES envelope. Customers (or their agents)
 * declare items; operators approve, fail with a reason, or adjust the clearance data, and
 * the customer adopts or rejects each adjustment (docs/decisions.md "Item review workflow").
 * One file per use case; this one gathers them as the `items` module.
 */
export * from './items.records.ts';
export * from './items.list.ts';
export * from './items.review.ts';
export * from './items.images.ts';
export * from './items.reference.ts';
export * from './items.import.ts';
