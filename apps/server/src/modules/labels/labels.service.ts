import { type ApiLanguage, type CallParsed, ErrorCode, type labels } from '@console/contract';
import { refusal, transition } from '../../domain/order-life.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { maskPhone } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { renderFile } from '../../lib/workbook-job.ts';
import type { LabelOrder, LabelRender } from './labels.render.ts';
import { createLabelsRepository } from './labels.repository.ts';
import './labels.messages.ts';

const RENDER = { module: new URL('./labels.render.ts', import.meta.url).href, name: 'renderLabels' };

type Rows = Awaited<ReturnType<ReturnType<typeof createLabelsRepository>['orders']>>;

/** Province, city, district and street as one line, a municipality's repeated name once. */
function fullAddress(r: Rows['rows'][number]) {
  const parts = [r.recipient_province, r.recipient_city, r.recipient_district, r.recipient_address].filter(Boolean);
  return parts.filter((p, i) => p !== parts[i - 1]).join('');
}

/** The UTC+8 wall time the label prints (spec: displayed times add 8 hours). */
const chinaMinute = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

export function createLabelsService(deps: { db: Database; clock: () => Date; fontDir: string }) {
  const { db, clock } = deps;
  const repo = createLabelsRepository(db);

  /**
   * The orders asked for, in the order asked, as labels show them; 404 when none is in the
   * caller's scope (another tenant's ids read as not found).
   */
  async function load(scope: Scope, ids: readonly number[]) {
    const wanted = [...new Set(ids)];
    const { rows, items } = await repo.orders(scope, wanted);
    if (!rows.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const itemsOf = Map.groupBy(items, (i) => i.order_id);
    const missing = wanted.filter((id) => !byId.has(id));
    const present = wanted.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
    const toLabel = (r: Rows['rows'][number]): LabelOrder => ({
      waybillNo: r.waybill_no ?? r.order_no,
      channel: r.channel_code,
      orderNo: r.order_no,
      splitWaybillNo: r.split_waybill_no,
      recipient: {
        name: r.recipient_name,
        phone: maskPhone(r.recipient_phone),
        address: fullAddress(r),
        postcode: r.recipient_postcode,
      },
      sender: { name: r.sender_name, phone: r.sender_phone, address: r.sender_address },
      items: (itemsOf.get(r.id) ?? []).map((i) => ({ name: i.name, jan: i.jan, quantity: i.quantity })),
      replacement: false,
    });
    return { present, missing, toLabel };
  }

  /** 409 naming each order that cannot be printed and why (the order-life rule), or nothing. */
  function refuse(
    lang: ApiLanguage,
    missing: number[],
    refused: { orderNo: string | null; key: string }[],
  ): never | void {
    const list = [
      ...missing.map(() => ({ orderNo: null, reason: translate(lang, 'orderNotFound') })),
      ...refused.map((r) => ({ orderNo: r.orderNo, reason: translate(lang, r.key, { orderNo: r.orderNo ?? '' }) })),
    ];
    if (!list.length) return;
    throw AppError.conflict('labelsRefused', { count: list.length, first: list[0]!.reason }, { refused: list });
  }

  async function render(job: Omit<LabelRender, 'fontDir' | 'printedAt'>, progress?: ProgressTracker) {
    const arg: LabelRender = { ...job, printedAt: chinaMinute(clock()), fontDir: deps.fontDir };
    return renderFile({ ...RENDER, arg }, { ext: 'pdf', total: job.orders.length }, progress);
  }

  return {
    /**
     * Waybill labels: a print of each order through the order life (checked and counted in one
     * transaction, before the PDF is drawn: a refused order refuses the whole download, nothing
     * counted). The PDF is then drawn in a worker; if drawing fails the print stays counted —
     * the console shows the failure and the user prints again, which the count then says.
     */
    async labelA(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      p: CallParsed<typeof labels.downloadLabelA>,
      progress?: ProgressTracker,
    ) {
      const { present, missing, toLabel } = await load(scope, p.ids);
      // Refused before writing anything: the same rule the UPDATE checks.
      const early = present
        .map((r) => ({ orderNo: r.order_no, key: refusal(r, 'print') }))
        .filter((r): r is { orderNo: string; key: string } => r.key !== null);
      refuse(lang, missing, early);
      const at = clock().toISOString();
      await db.transaction().execute(async (trx) => {
        const moved = await transition(
          trx,
          'print',
          present.map((r) => r.id),
          {
            at,
            by: actor.userId,
            location: p.printer ?? null,
            note: 'labelA',
          },
        );
        // Changed between the read and the write (intercepted meanwhile): nothing is counted.
        refuse(lang, [], moved.refused);
      });
      return render({ kind: 'labelA', orders: present.map(toLabel) }, progress);
    },

    /** Product labels (picking list): the orders' items; no print is counted. */
    async labelProduct(scope: Scope, p: CallParsed<typeof labels.downloadLabelProduct>, progress?: ProgressTracker) {
      const { present, missing, toLabel } = await load(scope, p.ids);
      if (missing.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound', { ids: missing });
      return render({ kind: 'product', orders: present.map(toLabel) }, progress);
    },
  };
}
export type LabelsService = ReturnType<typeof createLabelsService>;
