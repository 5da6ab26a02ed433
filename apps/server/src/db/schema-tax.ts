/** Table types of tax regimes and channel settings (migration 2026-11-24T0420-catorders-tax). */
export interface TaxRegimesTable {
  code: string;
  name_zh: string;
  name_en: string;
  duty_rate: string;
  vat_rate: string;
  levy_share: string;
  order_limit: string | null;
  yearly_limit: string | null;
  waiver: string | null;
}
export interface ChannelTaxSettingsTable {
  channel_code: string;
  regime_code: string | null;
  requires_registered_items: number;
}
export interface TaxConsumptionRatesTable {
  category_id: number;
  rate: string;
}
export interface BatchOrderNotesTable {
  batch_id: number;
  /** JSON: { orderNotes, notesSummary } of the parse worker. */
  notes: string;
}
export interface TaxTables {
  batch_order_notes: BatchOrderNotesTable;
  tax_regimes: TaxRegimesTable;
  channel_tax_settings: ChannelTaxSettingsTable;
  tax_consumption_rates: TaxConsumptionRatesTable;
}
