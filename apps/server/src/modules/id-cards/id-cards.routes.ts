import { orders } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { IdCardsService } from './id-cards.service.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Promise-letter ID cards: the list, one upload, the images, the bulk import (the calls keep their `orders` names and URLs). */
export function idCardsRoutes(r: Registrar, idCards: IdCardsService) {
  r.call(orders.idCards, async (input, ctx) => idCards.idCards(ctx.actor, await ctx.scope(), input));
  r.call(orders.idCardUpload, async (input, ctx) =>
    idCards.uploadIdCard(ctx.actor, await ctx.scope(), ctx.lang, input, ctx.files[0]),
  );
  r.call(orders.idCardImage, async (input, ctx) => {
    const f = await idCards.idCardImage(ctx.actor, await ctx.scope(), input.id, input.side, ctx.ip);
    return new Download(f.filename, f.mime, f.body);
  });
  r.call(orders.idCardImport, async (input, ctx) =>
    idCards.importIdCards(ctx.actor, await ctx.scope(), ctx.lang, input.customerId, ctx.files[0]),
  );
  r.call(orders.idCardImportErrors, async (input, ctx) => {
    const f = await idCards.idCardImportErrors(ctx.actor, input.fileId);
    return new Download(f.filename, f.mime, f.body);
  });
  r.call(orders.idCardTemplate, async (_input, ctx) => {
    const f = await idCards.idCardTemplate(ctx.actor, ctx.lang);
    return new Download(f.filename, XLSX, f.body);
  });
}
