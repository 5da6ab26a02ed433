import { type ApiLanguage, orders, type Paging } from '@console/contract';
import { translate } from '../../lib/messages.ts';
import type { Scope } from '../../lib/scope.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { buildWorkbookStream, SMALL_JOB_ROWS } from '../../lib/workbook-job.ts';
import { orderExportJob } from './orders.export.ts';
import { presentDetail, presentItem, presentOrderRow } from './orders.presenter.ts';
import { type OrderWrites, type Req, lockKey } from './orders.write.ts';

const EXPORT_MAX_ROWS = 100_000;

type SearchRow = Parameters<typeof presentOrderRow>[0] & {
  order_no: string;
  waybill_no: string | null;
  split_waybill_no: string | null;
  system_no: string | null;
  user_ref_no: string | null;
  batch_no: string | null;
};
const NUMBER_KINDS = ['orderNo', 'waybillNo', 'splitWaybillNo', 'systemNo', 'userRefNo', 'batchNo'] as const;
/** A row's numbers, in the order of NUMBER_KINDS. */
const numbersOf = (r: SearchRow) => [
  r.order_no,
  r.waybill_no,
  r.split_waybill_no,
  r.system_no,
  r.user_ref_no,
  r.batch_no,
];
/** A search hit with the first number kind that matched, or null when none did. */
function foundRow(r: SearchRow, wanted: Set<string>, lang: ApiLanguage): orders.SearchFound | null {
  const values = numbersOf(r);
  const i = values.findIndex((v) => v !== null && wanted.has(v));
  if (i < 0) return null;
  return { ...presentOrderRow(r, lang), matchedBy: NUMBER_KINDS[i]!, matched: values[i]! };
}

/** Finding orders: the list and its export, search by numbers, one order, the dashboard's counts. */
export function orderFinding(w: OrderWrites) {
  const { db, clock, repo, validationContext, pricing, load } = w;
  return {
    // ---- finding -------------------------------------------------------
    async list(scope: Scope, lang: ApiLanguage, p: Req<typeof orders.orderList>) {
      const { total, exact, list } = await repo.listPage(scope, p);
      return { total, exact, list: list.map((r) => presentOrderRow(r, lang)) };
    },
    async exportExcel(
      scope: Scope,
      lang: ApiLanguage,
      p: Req<typeof orders.downloadOrderExcel>,
      progress?: ProgressTracker,
    ) {
      // A one-page export must not wait behind other customers' big files: counted up to the
      // small size, it gets a small job's turn when it is one.
      const rowsAtMost = await repo.exportRowsUpTo(scope, p, SMALL_JOB_ROWS + 1);
      const job = { ...orderExportJob(repo.exportQuery(scope, p, EXPORT_MAX_ROWS), lang), rowsAtMost };
      const body = await buildWorkbookStream(db, job, progress);
      const day = new Date(clock().getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
      return { filename: `${lang !== 'en' ? '订单' : 'orders'}-${day}.xlsx`, body };
    },
    /** Every order the numbers name (up to 5,000), for the batch search's result workbook. */
    async search(scope: Scope, lang: ApiLanguage, numbers: string[]) {
      const rows = await repo.findByAnyNumber(scope, numbers);
      const wanted = new Set(numbers);
      const seen = new Set<string>();
      const found: orders.SearchFound[] = [];
      for (const r of rows) {
        const f = foundRow(r, wanted, lang);
        if (!f) continue;
        for (const v of numbersOf(r)) if (v !== null && wanted.has(v)) seen.add(v);
        found.push(f);
      }
      return { found, notFound: numbers.filter((n) => !seen.has(n)) };
    },
    /** One page of what the numbers name, the count, and the numbers that name nothing. */
    async searchPage(scope: Scope, lang: ApiLanguage, numbers: string[], p: Paging) {
      const [page, matched] = await Promise.all([
        repo.searchPage(scope, numbers, p),
        repo.matchedNumbers(scope, numbers),
      ]);
      const wanted = new Set(numbers);
      return {
        total: page.total,
        list: page.list.map((r) => foundRow(r, wanted, lang)).filter((f) => f !== null),
        notFound: numbers.filter((n) => !matched.has(n)),
      };
    },

    // ---- one order -----------------------------------------------------
    async detail(scope: Scope, lang: ApiLanguage, id: number) {
      const o = await load(scope, id);
      const [items, events, ctx] = await Promise.all([repo.items(id), repo.events(id), validationContext()]);
      const key = lockKey(o);
      const tax = await pricing.current(
        o,
        items.map((i) => ({ jan: i.jan, quantity: i.quantity, unitPrice: Number(i.unit_price), currency: i.currency })),
        ctx.currencies,
      );
      return presentDetail(
        o,
        items,
        events,
        ctx.currencies,
        key ? translate(lang, key, { orderNo: o.order_no }) : null,
        lang,
        tax,
      );
    },
    async items(scope: Scope, orderId: number) {
      const o = await load(scope, orderId);
      const [items, ctx] = await Promise.all([repo.items(o.id), validationContext()]);
      return items.map((i) => presentItem(i, ctx.currencies));
    },

    async stats(scope: Scope) {
      const since = new Date(clock().getTime() - 30 * 86_400_000);
      const [byStatusRows, attention, perDay] = await Promise.all([
        repo.countByStatus(scope),
        repo.countAttention(scope),
        repo.perDay(scope, since.toISOString()),
      ]);
      const byStatus = Object.fromEntries(orders.orderStatus.options.map((s) => [s, 0])) as Record<string, number>;
      for (const r of byStatusRows) byStatus[r.status] = Number(r.n);
      const counts = new Map(perDay.map((r) => [r.day, Number(r.n)]));
      const last30Days = Array.from({ length: 30 }, (_, i) => {
        // Days as seen in China (UTC+8), oldest first.
        const d = new Date(clock().getTime() + 8 * 3_600_000 - (29 - i) * 86_400_000).toISOString().slice(0, 10);
        return { day: d, count: counts.get(d) ?? 0 };
      });
      return {
        byStatus: byStatus as never,
        errors: Number(attention.errors ?? 0),
        abnormal: Number(attention.abnormal ?? 0),
        last30Days,
      };
    },
  };
}
export type OrderFinding = ReturnType<typeof orderFinding>;
