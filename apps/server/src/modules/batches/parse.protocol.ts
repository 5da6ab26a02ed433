import type { ApiLanguage } from '@console/contract';
import type { DefaultSender } from '../../domain/default-sender.ts';
import type { ChannelTax, TaxEstimate } from '../../domain/pricing/tax-estimate.ts';
import type { ColumnKey } from '../../domain/order-templates/template-columns.ts';
import type { TEMPLATES } from '../../domain/order-templates/templates.ts';

/**
 * What the parse pool (main thread) and a parse worker say to each other: the job, the
 * questions the worker asks and the answer it ends with.
 */
export interface ParseJob {
  file: Uint8Array;
  kind: keyof typeof TEMPLATES;
  /** Channel fixed by the template or chosen on the page (the order template may name it per row). */
  channel: string | null;
  customerId: number;
  exportNominationId: number | null;
  clearanceCompany: string | null;
  now: string;
  lang: ApiLanguage;
  maxRows: number;
  currencies: [string, number][];
  channels: { code: string; currency: string; origin: string }[];
  orderTypes: string[];
  clearanceCompanies: string[];
  /** Each channel's tax regime and whether it takes registered items only (domain/pricing/order-price.ts). */
  channelTax: [string, ChannelTax][];
  /** The channels the customer may use (domain/customer-channels.ts); null: every channel. */
  allowedChannels: string[] | null;
  /** The customer's default sender (domain/default-sender.ts): an order without sender cells takes it. */
  defaultSender: DefaultSender | null;
}

/** What one order to be made should be known for (issue 12): the first 200 go to the preview. */
export interface OrderNote {
  row: number;
  orderNo: string;
  items: { row: number; jan: string; status: 'unknown' | 'pending' | 'failed' }[];
  tax: TaxEstimate | null;
  yearlyLimit: boolean;
  reasons: { key: string; params?: Record<string, string | number> }[];
}
export interface NotesSummary {
  unregisteredItems: number;
  yearlyLimitOrders: number;
  taxTotalFen: number;
  taxedOrders: number;
}

export interface Issue {
  row: number;
  col: ColumnKey | null;
  letter: string | null;
  key: string;
  params?: Record<string, string | number>;
}

/** One kind of confirmation the sheet needs: how many orders, the first rows of them. */
export interface Confirmation {
  kind: string;
  key: string;
  params?: Record<string, string | number>;
  rows: number[];
  count: number;
}

/** An order number repeated in the sheet: its dropped rows and the row of the one kept. */
export interface Duplicate {
  orderNo: string;
  rows: number[];
  keptRow: number;
}

export type WorkerMessage =
  /** Its modules are loaded: from now on it reads a StopMessage within moments. */
  | { type: 'ready' }
  | { type: 'progress'; fraction: number; rows: number }
  | { type: 'checkOrderNos'; orderNos: string[] }
  /** The customer's catalogue entries of these JANs and these recipients' yearly totals (fen). */
  | { type: 'lookup'; jans: string[]; idCards: string[] }
  /** A clean batch's orders in their stored form (parsed-orders.ts), its bytes transferred. */
  | { type: 'parsed'; data: Uint8Array; sha256: string }
  | {
      type: 'done';
      totalRows: number;
      validRows: number;
      invalidRows: number;
      confirmRows: number;
      orderCount: number;
      invalidOrders: number;
      errors: Issue[];
      confirmations: Confirmation[];
      duplicates: Duplicate[];
      /** Orders that need confirmation (the first 200), each with its reasons. */
      confirmOrders: ConfirmOrder[];
      orderNotes: OrderNote[];
      notesSummary: NotesSummary;
      errorWorkbook: Uint8Array | null;
    }
  | { type: 'fatal'; key: string; params?: Record<string, string | number> };

/**
 * The pool asks a worker to end with this message (parse-pool.ts), never by terminating it first: a thread
 * terminated in the middle of native work (zlib inflating on the thread pool) could take the
 * whole process down (a SIGSEGV once in CI, as the app closed during a parse). The worker stops
 * at its next row or answer, lets its inflater close and leaves its event loop empty.
 */
export type StopMessage = { type: 'stop' };

export interface ConfirmOrder {
  row: number;
  orderNo: string;
  reasons: { kind: string; key: string; params?: Record<string, string | number> }[];
}
