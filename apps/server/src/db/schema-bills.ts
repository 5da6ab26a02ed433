import type { Generated } from 'kysely';

type Time = string;

/** Tables of bills (migration 2026-11-24T1340-bills-charges). */
export interface CurrencyRatesTable {
  currency: string;
  /** YYYY-MM: the rate applies from this month until a later row. */
  month: string;
  /** CNY per one unit of the currency, decimal text. */
  rate_cny: string;
}
export interface RateCardsTable {
  id: Generated<number>;
  /** Bumped by the database on every update of the row; edit forms save against it (migration 2026-11-27T0460). */
  version: Generated<number>;
  channel_code: string;
  /** Null: the channel's card; set: the customer's card, which overrides the channel's. */
  customer_id: number | null;
  /** YYYY-MM-DD (China day): in force from this day until a later card. */
  effective_from: string;
  currency: string;
  /** JSON of `RateRules` (contract bills.ts). */
  rules: string;
  created_by: number | null;
  created_at: Time;
}
export interface BillsTable {
  id: Generated<number>;
  customer_id: number;
  /** YYYY-MM (China month). */
  period: string;
  /** open | issued | paid */
  status: string;
  issued_at: Time | null;
  paid_at: Time | null;
  created_at: Time;
  updated_at: Time;
}
export interface ChargesTable {
  id: Generated<number>;
  bill_id: number;
  customer_id: number;
  order_id: number | null;
  kind: string;
  charge_key: string;
  /** Minor units of `currency` (JPY: yen, CNY: fen), signed for corrections. */
  amount_minor: number | string | bigint;
  currency: string;
  weight_g: number | null;
  rate_card_id: number | null;
  reason: string | null;
  corrects_id: number | null;
  at: Time;
  created_by: number | null;
}
export interface BillTables {
  currency_rates: CurrencyRatesTable;
  rate_cards: RateCardsTable;
  bills: BillsTable;
  charges: ChargesTable;
}
