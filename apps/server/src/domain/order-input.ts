// The contract's parts, not its index: the batch parse workers load this (see lib/messages.ts).
import type { reference } from '@console/contract';
import { isValidJan } from '@console/contract/checks';
import { isEmailAddress } from '@console/contract/email';
import { textProblem } from '@console/contract/fields';
import { cnDivisions } from './cn-divisions.ts';
import { CNY_LIMIT_PER_ORDER_MINOR, mayReceive } from './recipient-eligibility.ts';

/**
 * The normalised shape of one order to create, whatever it came from (a spreadsheet
 * row group, the single-order form). Money is integer minor units of `currency`.
 */
export interface OrderItemInput {
  jan: string | null;
  name: string;
  brand: string | null;
  spec: string | null;
  quantity: number;
  /** Minor units of `currency` (JPY 0 decimals, the others 2). */
  unitPrice: number;
  currency: string;
  origin: string | null;
  hazardCode: string | null;
}

export interface RecipientInput {
  name: string;
  idCard: string;
  phone: string;
  email: string | null;
  province: string;
  city: string;
  district: string;
  street: string | null;
  address: string;
  postcode: string | null;
}

export interface SenderInput {
  name: string | null;
  address: string | null;
  phone: string | null;
}

export interface OrderInput {
  customerId: number;
  channel: reference.ChannelCode;
  orderNo: string;
  boxNo: string | null;
  userRefNo: string | null;
  orderType: string;
  exportNominationId: number | null;
  /** The number segment the user chose (single create); none = the customer's own, else the shared one. */
  numberSegmentId?: number | null;
  clearanceCompanyCode: string | null;
  recipient: RecipientInput;
  sender: SenderInput;
  items: OrderItemInput[];
  insuredAmount: number;
  remark: string | null;
  /** CNY decimal: the tax estimated for the order (domain/pricing/tax-estimate.ts), stored with it. */
  taxEstimate?: string | null;
  /** The abnormal rules that caught the order (batch import computes them per row), stored with it. */
  abnormal?: { abnormal_rule: string | null; abnormal_reason: string | null; abnormal_at: string | null } | null;
}

/**
 * An OrderInput as nested arrays, for postMessage between threads: the structured clone of
 * 100,000 orders as objects copies every property name of every order (0.3-0.5 s); as arrays
 * it takes about half that. `unpackOrder(packOrder(o))` equals `o`.
 */
export type PackedOrder = readonly unknown[];

export function packOrder(o: OrderInput): PackedOrder {
  const r = o.recipient;
  return [
    o.customerId,
    o.channel,
    o.orderNo,
    o.boxNo,
    o.userRefNo,
    o.orderType,
    o.exportNominationId,
    o.numberSegmentId,
    o.clearanceCompanyCode,
    o.insuredAmount,
    o.remark,
    [r.name, r.idCard, r.phone, r.email, r.province, r.city, r.district, r.street, r.address, r.postcode],
    [o.sender.name, o.sender.address, o.sender.phone],
    o.items.map((it) => [
      it.jan,
      it.name,
      it.brand,
      it.spec,
      it.quantity,
      it.unitPrice,
      it.currency,
      it.origin,
      it.hazardCode,
    ]),
    o.taxEstimate ?? null,
  ];
}

export function unpackOrder(p: PackedOrder): OrderInput {
  const [customerId, channel, orderNo, boxNo, userRefNo, orderType, exportNominationId, numberSegmentId] = p as any[];
  const [clearanceCompanyCode, insuredAmount, remark, r, sender, items, taxEstimate] = (p as any[]).slice(8);
  const order: OrderInput = {
    customerId,
    channel,
    orderNo,
    boxNo,
    userRefNo,
    orderType,
    exportNominationId,
    clearanceCompanyCode,
    recipient: {
      name: r[0],
      idCard: r[1],
      phone: r[2],
      email: r[3],
      province: r[4],
      city: r[5],
      district: r[6],
      street: r[7],
      address: r[8],
      postcode: r[9],
    },
    sender: { name: sender[0], address: sender[1], phone: sender[2] },
    items: (items as any[][]).map((it) => ({
      jan: it[0],
      name: it[1],
      brand: it[2],
      spec: it[3],
      quantity: it[4],
      unitPrice: it[5],
      currency: it[6],
      origin: it[7],
      hazardCode: it[8],
    })),
    insuredAmount,
    remark,
  };
  if (numberSegmentId !== undefined) order.numberSegmentId = numberSegmentId;
  // Absent and null are the same (JSON writes an absent one as null).
  if (taxEstimate !== undefined && taxEstimate !== null) order.taxEstimate = taxEstimate;
  return order;
}

/** Template columns whose cells may hold tab and line breaks (Alt+Enter), as their request fields may. */
const MULTILINE_CELLS: ReadonlySet<string> = new Set(['remark', 'recipientAddress', 'senderAddress']);

/**
 * The contract's text rule (fields.ts) on an uploaded cell, so a cell with NUL (`_x0000_`),
 * a lone surrogate or a bidi override is an error row of the preview rather than a failed
 * commit or a stored NUL. A cell already unreadable keeps its own problem.
 */
export function checkedCell(
  column: string,
  cell: { text: string } | { problem: string },
): { text: string } | { problem: string } {
  if (!('text' in cell)) return cell;
  const problem = textProblem(cell.text, MULTILINE_CELLS.has(column));
  return problem ? { problem: `text_${problem}` } : cell;
}

/** `field` is a path into OrderInput: `orderNo`, `recipient.idCard`, `items.2.jan`. */
export interface OrderIssue {
  field: string;
  messageKey: string;
  params?: Record<string, string | number>;
}

export type ConfirmationKind = 'minorId' | 'multiplePricesPerJan' | 'crossBorderLimit';
export const confirmationKinds: readonly ConfirmationKind[] = ['minorId', 'multiplePricesPerJan', 'crossBorderLimit'];

export interface OrderConfirmation {
  kind: ConfirmationKind;
  field: string;
  messageKey: string;
  params?: Record<string, string | number>;
}

export interface OrderValidation {
  errors: OrderIssue[];
  confirmations: OrderConfirmation[];
}

export interface ValidateContext {
  /** Injected clock: minors and future birth dates are judged on this day (Asia/Shanghai). */
  now: Date;
  /** Known currency codes with their minor-unit digits (reference table `currencies`). */
  currencies: ReadonlyMap<string, number>;
  /** Order types known (reference table `order_types`); absent = not checked. */
  orderTypes?: ReadonlySet<string>;
  /** Clearance companies known; absent = not checked. */
  clearanceCompanies?: ReadonlySet<string>;
  /**
   * The channels the order's customer may use (domain/customer-channels.ts), given only where an
   * order gets its channel (create, import): an order kept on a channel taken away later is
   * still changed and re-checked as it is. Absent or null = every channel.
   */
  allowedChannels?: ReadonlySet<string> | null;
}

/** The per-order limit is a rule on the recipient (recipient-eligibility.ts). */
export { CNY_LIMIT_PER_ORDER_MINOR };

/**
 * Reference rates to CNY used only to flag the per-order limit for confirmation (the
 * customs value is decided at clearance, not here): CNY per one major unit.
 */
export const CNY_REFERENCE_RATES: Readonly<Record<string, number>> = {
  CNY: 1,
  JPY: 0.048,
  USD: 7.2,
  SGD: 5.3,
  AUD: 4.7,
  GBP: 9.1,
  PHP: 0.125,
  THB: 0.2,
};

/** Order value in CNY minor units (fen), by the reference rates; null if a currency has no rate. */
export function orderValueCny(
  order: Pick<OrderInput, 'items'>,
  currencies: ReadonlyMap<string, number>,
): number | null {
  let fen = 0;
  for (const it of order.items) {
    const rate = CNY_REFERENCE_RATES[it.currency];
    const decimals = currencies.get(it.currency);
    if (rate === undefined || decimals === undefined) return null;
    fen += ((it.unitPrice * it.quantity) / 10 ** decimals) * rate * 100;
  }
  return Math.round(fen);
}

const PHONE = /^\+?[\d\- ()]{6,20}$/;
/**
 * Emoji and other pictographs (issue 36 #22): a recipient's name must match the ID card's holder
 * at customs, and no ID card holds one, so such an order could only fail there, days later.
 */
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const MAX_TEXT = 200;

/** Every rule of one order (spec §5 and the domain's rules); pure, so the parse worker runs it too. */
/**
 * The recipient's division by name, by the same rule as `validateOrder` (municipalities list
 * their districts under a city of the same name): the district's code and the canonical names,
 * or the field that does not resolve with its message key. Used where an address alone changes
 * (modules/label-b).
 */
export function resolveDivision(
  province: string,
  city: string,
  district: string,
):
  | { ok: true; code: string; province: string; city: string; district: string }
  | { ok: false; field: 'province' | 'city' | 'district'; messageKey: string; params: { value: string } } {
  const p = cnDivisions.findProvince(province);
  if (!p) return { ok: false, field: 'province', messageKey: 'provinceUnknown', params: { value: province } };
  const c = cnDivisions.cityOf(p.code, city);
  if (!c) return { ok: false, field: 'city', messageKey: 'cityUnknown', params: { value: city } };
  const a = cnDivisions.findArea(c.code, district);
  if (!a) return { ok: false, field: 'district', messageKey: 'districtUnknown', params: { value: district } };
  return { ok: true, code: a.code, province: p.name, city: c.name, district: a.name };
}

/** A recipient phone as order input accepts it. */
export const isRecipientPhone = (v: string) => PHONE.test(v);

export function validateOrder(input: OrderInput, ctx: ValidateContext): OrderValidation {
  const errors: OrderIssue[] = [];
  const confirmations: OrderConfirmation[] = [];
  const err = (field: string, messageKey: string, params?: OrderIssue['params']) =>
    errors.push(params ? { field, messageKey, params } : { field, messageKey });
  const required = (field: string, v: string | null | undefined, key: string) => {
    if (!v || !v.trim()) {
      err(field, key);
      return false;
    }
    if (v.length > MAX_TEXT) {
      err(field, 'orderTextTooLong', { max: MAX_TEXT });
      return false;
    }
    return true;
  };

  if (ctx.allowedChannels && !ctx.allowedChannels.has(input.channel))
    err('channel', 'channelNotAllowed', { value: input.channel });
  if (required('orderNo', input.orderNo, 'orderNoRequired') && !/^[\w\-./#]{1,64}$/.test(input.orderNo)) {
    err('orderNo', 'orderNoFormat');
  }
  const r = input.recipient;
  if (required('recipient.name', r.name, 'recipientNameRequired') && PICTOGRAPH.test(r.name))
    err('recipient.name', 'recipientNameSymbols');
  if (required('recipient.phone', r.phone, 'recipientPhoneRequired') && !PHONE.test(r.phone)) {
    err('recipient.phone', 'recipientPhoneFormat');
  }
  if (required('recipient.idCard', r.idCard, 'recipientIdCardRequired')) {
    const id = mayReceive({ idCard: r.idCard, now: ctx.now });
    if (id.idCardProblem) err('recipient.idCard', id.idCardProblem);
    else if (id.minorBirth) {
      confirmations.push({
        kind: 'minorId',
        field: 'recipient.idCard',
        messageKey: 'confirmMinorId',
        params: { birth: id.minorBirth },
      });
    }
  }
  const hasProvince = required('recipient.province', r.province, 'provinceRequired');
  const hasCity = required('recipient.city', r.city, 'cityRequired');
  const hasDistrict = required('recipient.district', r.district, 'districtRequired');
  required('recipient.address', r.address, 'addressRequired');
  if (hasProvince) {
    const p = cnDivisions.findProvince(r.province);
    if (!p) err('recipient.province', 'provinceUnknown', { value: r.province });
    else if (hasCity) {
      // Municipalities list their districts under a city of the same name (cnDivisions.cityOf).
      const c = cnDivisions.cityOf(p.code, r.city);
      if (!c) err('recipient.city', 'cityUnknown', { value: r.city });
      else if (hasDistrict && !cnDivisions.findArea(c.code, r.district)) {
        err('recipient.district', 'districtUnknown', { value: r.district });
      }
    }
  }
  if (r.postcode && !/^\d{6}$/.test(r.postcode)) err('recipient.postcode', 'postcodeFormat');
  // The contract's one e-mail rule (finding 14 of issue 26): a sheet row is no looser than a form.
  if (r.email && !isEmailAddress(r.email)) err('recipient.email', 'emailFormat');
  if (input.sender.phone && !PHONE.test(input.sender.phone)) err('sender.phone', 'senderPhoneFormat');
  if (ctx.orderTypes && !ctx.orderTypes.has(input.orderType))
    err('orderType', 'orderTypeUnknown', { value: input.orderType });
  if (input.clearanceCompanyCode && ctx.clearanceCompanies && !ctx.clearanceCompanies.has(input.clearanceCompanyCode)) {
    err('clearanceCompanyCode', 'clearanceCompanyUnknown', { value: input.clearanceCompanyCode });
  }

  if (input.items.length === 0) err('items', 'itemsRequired');
  const pricesByJan = new Map<string, Set<number>>();
  input.items.forEach((it, i) => {
    const f = (k: string) => `items.${i}.${k}`;
    required(f('name'), it.name, 'itemNameRequired');
    if (it.jan) {
      if (!isValidJan(it.jan)) err(f('jan'), 'janInvalid', { value: it.jan });
      else {
        const set = pricesByJan.get(it.jan) ?? new Set<number>();
        set.add(it.unitPrice);
        pricesByJan.set(it.jan, set);
      }
    }
    if (!Number.isInteger(it.quantity) || it.quantity < 1 || it.quantity > 99_999)
      err(f('quantity'), 'quantityInvalid');
    if (!Number.isInteger(it.unitPrice) || it.unitPrice <= 0) err(f('unitPrice'), 'priceMustBePositive');
    if (!ctx.currencies.has(it.currency)) err(f('currency'), 'currencyUnknown', { value: it.currency });
  });
  // Spec §5: several prices for one JAN in one box ask for confirmation.
  for (const [jan, prices] of pricesByJan) {
    if (prices.size > 1) {
      const i = input.items.findIndex((it) => it.jan === jan);
      confirmations.push({
        kind: 'multiplePricesPerJan',
        field: `items.${i}.unitPrice`,
        messageKey: 'confirmMultiplePricesPerJan',
        params: { jan },
      });
    }
  }
  const fen = errors.length === 0 ? orderValueCny(input, ctx.currencies) : null;
  if (fen !== null && mayReceive({ valueFen: fen }).overOrderLimit) {
    confirmations.push({
      kind: 'crossBorderLimit',
      field: 'items',
      messageKey: 'confirmCrossBorderLimit',
      params: { amount: (fen / 100).toFixed(2) },
    });
  }
  return { errors, confirmations };
}
