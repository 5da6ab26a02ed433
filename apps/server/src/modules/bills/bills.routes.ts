import { bills as c } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { BillsService } from './bills.service.ts';

export function billsRoutes(r: Registrar, service: BillsService) {
  r.call(c.bills, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.billLines, async (input, ctx) => service.lines(await ctx.scope(), input));
  r.call(c.billMonths, async (input, ctx) => service.months(await ctx.scope(), input.customerId));
  r.call(c.downloadBill, async (input, ctx) => service.download(await ctx.scope(), input.id, ctx.lang));
  r.call(c.issueBill, async (input, ctx) => service.issue(ctx, await ctx.scope(), input.id));
  r.call(c.payBill, async (input, ctx) => service.markPaid(ctx, await ctx.scope(), input.id));
  r.call(c.adjustBill, async (input, ctx) => service.adjust(ctx, input));
  r.call(c.rateCardList, async (input) => service.cards(input));
  r.call(c.saveRateCard, async (input, ctx) => service.saveCard(ctx, input));
}
