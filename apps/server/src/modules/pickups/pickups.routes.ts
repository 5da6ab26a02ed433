import { pickups as c } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { PickupsService } from './pickups.service.ts';

export function pickupsRoutes(r: Registrar, service: PickupsService) {
  r.call(c.timeSlots, async (input) => service.slots(input));
  r.call(c.bookPickup, async (input, ctx) => service.book(ctx.actor, await ctx.scope(), input));
  r.call(c.updatePickup, async (input, ctx) => service.update(await ctx.scope(), input));
  r.call(c.pickupList, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.pickupInfo, async (input, ctx) => service.info(await ctx.scope(), input.id));
  r.call(c.cancelPickup, async (input, ctx) => service.cancel(await ctx.scope(), input.id, input.reason));
  r.call(c.pickupSlip, async (input, ctx) => service.slip(await ctx.scope(), input.id, ctx.lang));
  r.call(c.pickupMessages, async (input, ctx) => service.messages(await ctx.scope(), ctx.lang, input));
  r.call(c.shopAbbreviation, async (input) => service.shopAbbr(input.name));
  r.call(c.slotCapacities, async () => service.capacities());
  r.call(c.setSlotCapacity, async (input, ctx) => service.setCapacity(ctx, input));
}
