import { boxPriceConflicts } from '../../domain/box-price-conflicts.ts';
import { type OrderInput, validateOrder } from '../../domain/order-input.ts';
import type { ConfirmOrder, Duplicate, Issue, ParseJob } from './parse.protocol.ts';
import type { RowRec } from './parse.sheet.ts';
import { COLUMNS, type ColumnDef, type ColumnKey } from '../../domain/order-templates/template-columns.ts';
import { TEMPLATES } from '../../domain/order-templates/templates.ts';

/**
 * The sheet's records made orders in the parse worker: rows grouped by order number, cells
 * converted, the domain's rules run, and what each order needs confirmed collected.
 */

/** The rows of one order: consecutive rows with its order number (and box). */
export type Group = { orderNo: string; rows: RowRec[] };

function moneyToMinor(text: string, decimals: number): number | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.replace(/,/g, ''));
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return null;
  return Number(m[1]) * 10 ** decimals + Number(frac.padEnd(decimals, '0') || '0');
}

/** Groups consecutive rows with the same order number (and box) into orders; a later repeat wins. */
export function groupOrders(records: RowRec[]) {
  const groups: Group[] = [];
  for (const rec of records) {
    const no = rec.values['orderNo'] ?? '';
    const last = groups.at(-1);
    if (last && no && last.orderNo === no && (last.rows[0]!.values['boxNo'] ?? '') === (rec.values['boxNo'] ?? '')) {
      last.rows.push(rec);
    } else groups.push({ orderNo: no, rows: [rec] });
  }
  const lastIndexOf = new Map<string, number>();
  groups.forEach((g, i) => g.orderNo && lastIndexOf.set(g.orderNo, i));
  const duplicates = new Map<string, Duplicate>();
  const kept: Group[] = [];
  const droppedRows = new Set<number>();
  groups.forEach((g, i) => {
    const lastIdx = lastIndexOf.get(g.orderNo);
    if (g.orderNo && lastIdx !== undefined && lastIdx !== i) {
      const d = duplicates.get(g.orderNo) ?? { orderNo: g.orderNo, rows: [], keptRow: groups[lastIdx]!.rows[0]!.row };
      d.rows.push(...g.rows.map((r) => r.row));
      duplicates.set(g.orderNo, d);
      g.rows.forEach((r) => droppedRows.add(r.row));
    } else kept.push(g);
  });
  return { kept, duplicates, droppedRows };
}

/**
 * Orders from groups, cell conversions, then the domain rules. `orders` holds the orders that can
 * be made (null where one has errors), `built` every order its rows made, errors or not; `issue`
 * records a later step's error on a row.
 */
export function buildOrders(
  job: ParseJob,
  sheet: { cellProblems: Issue[]; letterOf: Map<ColumnKey, string> },
  grouped: { kept: Group[]; droppedRows: Set<number> },
  channels: Map<string, ParseJob['channels'][number]>,
  currencies: Map<string, number>,
) {
  const def = TEMPLATES[job.kind];
  const { cellProblems, letterOf } = sheet;
  const { kept, droppedRows } = grouped;
  const ctx = {
    now: new Date(job.now),
    currencies,
    orderTypes: new Set(job.orderTypes),
    clearanceCompanies: new Set(job.clearanceCompanies),
    allowedChannels: job.allowedChannels ? new Set(job.allowedChannels) : null,
  };
  const errors: Issue[] = cellProblems.filter((p) => !droppedRows.has(p.row));
  const confirmByRow = new Map<number, { key: string; params?: Record<string, string | number> }[]>();
  /** Per kept order: what it needs confirmed (counted once the orders with errors are known). */
  const orderConfirms: ConfirmOrder['reasons'][] = [];
  const orders: (OrderInput | null)[] = [];
  /** Every order built from its rows, with errors or not: its items are checked against the catalogue. */
  const built: (OrderInput | null)[] = [];
  // A cell that could not be read reports that, not the rule it then fails.
  const unreadable = new Set(cellProblems.map((p) => `${p.row}:${p.col}`));
  const issue = (row: number, col: ColumnKey | null, key: string, params?: Record<string, string | number>) => {
    if (col && unreadable.has(`${row}:${col}`)) return;
    errors.push({ row, col, letter: col ? (letterOf.get(col) ?? null) : null, key, ...(params ? { params } : {}) });
  };
  const fieldCol: Record<string, ColumnKey> = {
    orderNo: 'orderNo',
    'recipient.name': 'recipientName',
    'recipient.idCard': 'recipientIdCard',
    'recipient.phone': 'recipientPhone',
    'recipient.province': 'recipientProvince',
    'recipient.city': 'recipientCity',
    'recipient.district': 'recipientDistrict',
    'recipient.address': 'recipientAddress',
    'recipient.postcode': 'recipientPostcode',
    'recipient.email': 'recipientName',
    'sender.phone': 'senderPhone',
    orderType: 'orderType',
    clearanceCompanyCode: 'clearanceCompany',
    name: 'itemName',
    jan: 'jan',
    quantity: 'quantity',
    unitPrice: 'unitPrice',
    currency: 'currency',
  };
  const orderCols = def.columns.filter((k) => (COLUMNS[k] as ColumnDef).level === 'order');

  for (const g of kept) {
    const first = g.rows[0]!;
    const v = (k: ColumnKey) => first.values[k] ?? '';
    const nul = (k: ColumnKey) => first.values[k] || null;
    // Order-level cells of the following rows may be left empty; if filled they must agree.
    for (const r of g.rows.slice(1)) {
      for (const k of orderCols) {
        const x = r.values[k];
        if (x && x !== v(k)) issue(r.row, k, 'cellDiffersWithinOrder', { first: first.row });
      }
    }
    const channelCode = def.channel ?? (v('channel') || job.channel || '');
    const channel = channels.get(channelCode);
    if (!channel) {
      issue(
        first.row,
        def.columns.includes('channel') ? 'channel' : null,
        channelCode ? 'channelUnknown' : 'channelRequired',
        { value: channelCode },
      );
      orders.push(null);
      built.push(null);
      orderConfirms.push([]);
      continue;
    }
    let bad = false;
    const items = g.rows.map((r) => {
      const cur = r.values['currency'] || channel.currency;
      const decimals = currencies.get(cur) ?? 2;
      const qtyText = r.values['quantity'] ?? '';
      const quantity = /^\d+$/.test(qtyText) ? Number(qtyText) : NaN;
      if (qtyText && Number.isNaN(quantity)) {
        issue(r.row, 'quantity', 'quantityInvalid');
        bad = true;
      } else if (!qtyText) {
        issue(r.row, 'quantity', 'cellRequired');
        bad = true;
      }
      const priceText = r.values['unitPrice'] ?? '';
      const price = priceText ? moneyToMinor(priceText, decimals) : 0;
      if (price === null) {
        // "At most 0 decimals" reads as a riddle: a whole-unit currency (JPY) says so.
        if (decimals === 0) issue(r.row, 'unitPrice', 'cellMoneyWhole', { currency: cur });
        else issue(r.row, 'unitPrice', 'cellMoneyFormat', { decimals });
        bad = true;
      }
      return {
        jan: r.values['jan'] || null,
        name: r.values['itemName'] ?? '',
        brand: r.values['brand'] || null,
        spec: r.values['spec'] || null,
        quantity: Number.isNaN(quantity) ? 1 : quantity,
        unitPrice: price ?? 1,
        currency: cur.toUpperCase(),
        origin: r.values['origin'] || channel.origin,
        hazardCode: r.values['hazardCode'] || null,
      };
    });
    if (def.columns.includes('boxNo') && !v('boxNo')) {
      issue(first.row, 'boxNo', 'boxNoRequired');
      bad = true;
    }
    // No sender cells (or no sender columns): the customer's default sender, as single create
    // fills it; none at all is refused here rather than printed as "寄件人 From -".
    let sender: OrderInput['sender'] = {
      name: nul('senderName'),
      address: nul('senderAddress'),
      phone: nul('senderPhone'),
    };
    if (!sender.name && !sender.address && !sender.phone && job.defaultSender) sender = { ...job.defaultSender };
    if (!sender.name) {
      issue(first.row, def.columns.includes('senderName') ? 'senderName' : null, 'senderRequired');
      bad = true;
    }
    const order: OrderInput = {
      customerId: job.customerId,
      channel: channel.code as OrderInput['channel'],
      orderNo: g.orderNo,
      boxNo: nul('boxNo'),
      userRefNo: nul('userRefNo'),
      orderType: v('orderType') || 'normal',
      exportNominationId: job.exportNominationId,
      clearanceCompanyCode: v('clearanceCompany') || job.clearanceCompany,
      recipient: {
        name: v('recipientName'),
        idCard: v('recipientIdCard').toUpperCase(),
        phone: v('recipientPhone'),
        email: null,
        province: v('recipientProvince'),
        city: v('recipientCity'),
        district: v('recipientDistrict'),
        street: null,
        address: v('recipientAddress'),
        postcode: nul('recipientPostcode'),
      },
      sender,
      items,
      insuredAmount: 0,
      remark: nul('remark'),
    };
    const res = validateOrder(order, ctx);
    for (const e of res.errors) {
      const m = /^items\.(\d+)\.(\w+)$/.exec(e.field);
      const row = m ? g.rows[Number(m[1])]!.row : first.row;
      const col = fieldCol[m ? m[2]! : e.field] ?? null;
      issue(row, col && def.columns.includes(col) ? col : null, e.messageKey, e.params);
      bad = true;
    }
    const reasons: ConfirmOrder['reasons'] = [];
    for (const c of res.confirmations) {
      const m = /^items\.(\d+)\./.exec(c.field);
      const row = m ? g.rows[Number(m[1])]!.row : first.row;
      (confirmByRow.get(row) ?? confirmByRow.set(row, []).get(row)!).push({ key: c.messageKey, params: c.params });
      reasons.push({ kind: c.kind, key: c.messageKey, ...(c.params ? { params: c.params } : {}) });
    }
    orderConfirms.push(reasons);
    orders.push(bad ? null : order);
    built.push(order);
  }

  // 3a. Several prices for one JAN across the orders of one box (spec §5): asked like the same
  // prices within one order, once per order and JAN.
  for (const [i, boxJans] of boxPriceConflicts(built)) {
    const o = built[i]!;
    const reasons = orderConfirms[i]!;
    for (const jan of boxJans) {
      if (reasons.some((r) => r.kind === 'multiplePricesPerJan' && r.params?.jan === jan)) continue;
      const row = kept[i]!.rows[o.items.findIndex((it) => it.jan === jan)]!.row;
      (confirmByRow.get(row) ?? confirmByRow.set(row, []).get(row)!).push({
        key: 'confirmMultiplePricesPerJan',
        params: { jan },
      });
      reasons.push({ kind: 'multiplePricesPerJan', key: 'confirmMultiplePricesPerJan', params: { jan } });
    }
  }
  return { errors, issue, confirmByRow, orderConfirms, orders, built };
}
