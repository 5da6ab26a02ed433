import { orders } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { OrdersService } from './orders.service.ts';

export function ordersRoutes(r: Registrar, service: OrdersService) {
  r.call(orders.errorOrders, async (input, ctx) => service.attention(await ctx.scope(), 'error', input));
  r.call(orders.abnormalOrders, async (input, ctx) => service.attention(await ctx.scope(), 'abnormal', input));
  r.call(orders.orderStats, async (_input, ctx) => service.stats(await ctx.scope()));
}
