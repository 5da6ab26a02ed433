import { orders } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { ChangeKind, OrderChanges } from './orders.changes.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Batch sender and updates: preview (pasted numbers or a sheet), apply, template, refused rows. */
export function orderChangesRoutes(r: Registrar, changes: OrderChanges) {
  r.call(orders.batchSenderPreview, async (input, ctx) =>
    changes.previewSender(ctx.actor, await ctx.scope(), ctx.lang, input.orderNos, input.sender, input.customerId),
  );
  const pages = [
    [
      'batchSender',
      orders.batchSenderTemplate,
      orders.batchSenderPreviewSheet,
      orders.batchSenderApply,
      orders.batchSenderErrors,
    ],
    ['updates', orders.updatesTemplate, orders.updatesPreview, orders.updatesApply, orders.updatesErrors],
  ] as const;
  for (const [kind, template, preview, apply, errors] of pages) {
    const k: ChangeKind = kind;
    r.call(template, async (_input, ctx) => {
      const f = await changes.template(ctx.lang, k);
      return new Download(f.filename, XLSX, f.body);
    });
    r.call(preview, async (input, ctx) =>
      changes.previewSheet(ctx.actor, await ctx.scope(), ctx.lang, k, ctx.files[0], input.customerId),
    );
    r.call(apply, async (input, ctx) => changes.apply(ctx.actor, await ctx.scope(), k, input.previewId));
    r.call(errors, async (input, ctx) => {
      const f = await changes.errorFile(ctx.actor, k, input.fileId);
      return new Download(f.name, f.mime, f.body);
    });
  }
}
