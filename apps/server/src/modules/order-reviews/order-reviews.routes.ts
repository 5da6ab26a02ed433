import { orderReviews as c } from '@console/contract';
import type { CallContext } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import { tracked } from '../../lib/export-progress.ts';
import type { OrderReviewsService } from './order-reviews.service.ts';

export function orderReviewsRoutes(r: Registrar, service: OrderReviewsService) {
  const file = (ctx: CallContext) => ctx.files.find((f) => f.field === 'file') ?? ctx.files[0];
  r.call(c.orderReviews, async (input, ctx) => service.page(await ctx.scope(), ctx.lang, input));
  r.call(c.createOrderReview, async (input, ctx) => {
    // The call stores the file and queues the review; its progressId reports that much.
    const progress = ctx.trackExport(input.progressId);
    return tracked(progress, async () =>
      service.create(ctx.actor, await ctx.scope(), ctx.lang, input, file(ctx), progress),
    );
  });
  r.call(c.orderReviewOrders, async (input, ctx) => service.orders(await ctx.scope(), ctx.lang, input));
  r.call(c.orderReviewOrderItems, async (input, ctx) => service.items(await ctx.scope(), ctx.lang, input));
  r.call(c.deleteOrderReview, async (input, ctx) => service.remove(await ctx.scope(), input.id));
  r.call(c.completeOrderReview, async (input, ctx) =>
    service.complete(ctx.actor, await ctx.scope(), ctx.lang, input.id, input.remarks),
  );
  r.call(c.downloadOrderReviewItems, async (input, ctx) => {
    const progress = ctx.trackExport(input.progressId);
    return tracked(progress, async () => service.download(await ctx.scope(), input.id, ctx.lang, progress));
  });
  r.call(c.downloadOrderReviewTemplate, () => service.template());
}
