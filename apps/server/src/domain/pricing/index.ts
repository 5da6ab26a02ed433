/**
 * Pricing: what an order costs, in one place (issue 40). Price this order: `createOrderPricing`
 * (order-price.ts) — its items' catalogue marks, the refusals of a channel that takes registered
 * items only, and the tax estimate — for the single create and the edit; the batch import runs
 * the same pure estimate (tax-estimate.ts) in its parse worker with `loadChannelTax`'s tables.
 * What the customer is charged: `charges.ts` (shipment, storage, interception, relabel, repricing;
 * the one writer of `charges`), the amounts (`charge-amounts.ts`) by the rate card in force
 * (`rate-cards.ts`).
 *
 * Callers import pricing from here; the parse worker imports tax-estimate.ts alone (it must not
 * load the database: test/batches/parse-worker-modules.test.ts).
 */
export { type CatalogueEntries, createOrderPricing, loadChannelTax, yearlyTotals } from './order-price.ts';
export {
  chargeInterception,
  chargeRelabel,
  chargeShipment,
  chargeStorageAccrued,
  type NewCharge,
  repriceFreight,
  writeCharges,
} from './charges.ts';
export { chinaMonthOf, chinaMonthStart, fromMinor, toCnyFen, toMinor } from './charge-amounts.ts';
export { cardInForce } from './rate-cards.ts';
export { type CatalogueEntry, type ChannelTax, estimateTax, fenText, type TaxEstimate } from './tax-estimate.ts';
