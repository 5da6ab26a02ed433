import { ErrorCode, v1 } from '@console/contract';
import type { V1Context, V1Registrar } from '../../http/register-v1.ts';
import { refusal } from '../../domain/order-life.ts';
import { AppError } from '../../lib/errors.ts';
import type { Database } from '../../db/database.ts';
import type { OrdersService } from './orders.service.ts';
import { createOrdersV1Repository } from './orders.v1.repository.ts';
import { presentV1Order } from '../../domain/v1-order.ts';

/**
 * The console's interception (modules/interceptions' `create`), handed in by app.ts: orders may
 * not import interceptions, which reads orders' list helpers (the module graph may not circle,
 * ARCHITECTURE.md).
 */
export type InterceptOrders = (
  actor: V1Context['actor'],
  scope: V1Context['scope'],
  lang: V1Context['lang'],
  p: { noType: 'systemNo'; numbers: string[]; reason: string },
) => Promise<{ results: { outcome: string; interceptionId?: number | null }[] }>;

/**
 * The v1 calls on one order beyond reading it (issue 39): cancel and intercept, each the console's
 * own use case (the order life's `cancel`; the interceptions service), and its tracking events.
 * Another tenant's order is as unknown as a missing one (404 `notFound`), read through the key's scope.
 */
export function ordersV1ActionRoutes(r: V1Registrar, db: Database, orders: OrdersService, intercept: InterceptOrders) {
  const repo = createOrdersV1Repository(db);
  const mine = async (ctx: V1Context, id: number) => {
    const row = await repo.byId(ctx.scope, id);
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
    return row;
  };

  r.call(v1.cancelOrder, async ({ params, body }, ctx) => {
    await mine(ctx, params.id);
    await orders.cancel(ctx.actor, ctx.scope, params.id, body.reason ?? null);
    return presentV1Order(await mine(ctx, params.id));
  });

  r.call(v1.interceptOrder, async ({ params, body }, ctx) => {
    const o = await mine(ctx, params.id);
    // The order-life key before writing, as the console's interception would refuse it.
    const early = refusal(o, 'intercept');
    if (early) throw AppError.conflict(early, { orderNo: o.order_no });
    // By its system number, unique across customers: the console's interception names exactly this order.
    const done = await intercept(ctx.actor, ctx.scope, ctx.lang, {
      noType: 'systemNo',
      numbers: [o.system_no],
      reason: body.reason,
    });
    const hit = done.results.find((x) => x.outcome === 'intercepted');
    const after = await mine(ctx, params.id);
    if (!hit) {
      // Moved between the read and the write: the order life's reason as it stands now.
      throw AppError.conflict(refusal(after, 'intercept') ?? 'lifeIntercepted', { orderNo: o.order_no });
    }
    return { order: presentV1Order(after), interceptionId: hit.interceptionId! };
  });

  r.call(v1.orderTracking, async ({ params }, ctx) => {
    await mine(ctx, params.id);
    const { order, events } = await orders.trail(ctx.scope, params.id);
    return {
      id: order.id,
      orderNo: order.order_no,
      waybillNo: order.waybill_no,
      status: order.status as v1.V1Order['status'],
      intercepted: order.intercepted === 1,
      events,
    };
  });
}
