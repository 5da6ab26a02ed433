import { items as c } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { ItemImportService } from './items.import.ts';
import type { ItemsService } from './items.service.ts';

export function itemsRoutes(r: Registrar, service: ItemsService, imports: ItemImportService) {
  // Checked and serialised answers kept while nothing is committed (http/response-cache.ts): a
  // page of the list costs several times its AES sealing. The tax unit is in the caller's
  // language, so the language is part of the key.
  const listCache = r.responseCache(c.items);
  r.call(c.items, async (input, ctx) => {
    const scope = await ctx.scope();
    return listCache(JSON.stringify([scope, ctx.lang, input]), () => service.list(scope, ctx.lang, input));
  });
  r.call(c.item, async (input, ctx) => service.detail(await ctx.scope(), ctx.lang, input.id));
  r.call(c.createItem, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(c.updateItem, async (input, ctx) => service.update(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(c.approveItem, (input, ctx) => service.review(ctx.staff, ctx.actor, ctx.lang, input.id, 'approved'));
  r.call(c.failItem, (input, ctx) => service.review(ctx.staff, ctx.actor, ctx.lang, input.id, 'failed', input.reason));
  r.call(c.adjustItem, (input, ctx) => service.adjust(ctx.actor, input.id, input.changes, input.note));
  r.call(c.itemAdjustments, async (input, ctx) => service.adjustments(await ctx.scope(), input));
  r.call(c.adoptAdjustment, async (input, ctx) => service.adopt(ctx.actor, await ctx.scope(), ctx.lang, input.id));
  r.call(c.rejectAdjustment, async (input, ctx) =>
    service.reject(ctx.actor, await ctx.scope(), input.id, input.reason),
  );
  r.call(c.uploadItemImage, async (input, ctx) =>
    service.uploadImage(ctx.actor, await ctx.scope(), ctx.lang, input.customerId, ctx.files[0]),
  );
  r.call(c.itemImage, async (input, ctx) => {
    const f = await service.image(await ctx.scope(), input.imageId);
    return new Download(f.filename, f.mime, f.body);
  });
  r.call(c.parts, () => service.parts());
  r.call(c.brands, (input) => service.brands(input.keyword));
  r.call(c.categories, () => service.categories());
  r.call(c.exportCategories, () => service.exportCategories());
  r.call(c.taxes, (_input, ctx) => service.taxes(ctx.lang));
  r.call(c.itemImportTemplate, () => imports.template());
  r.call(c.uploadItemImport, async (input, ctx) =>
    imports.upload(ctx.actor, await ctx.scope(), ctx.lang, input.customerId, ctx.files[0]),
  );
  r.call(c.itemImportProgress, async (input, ctx) => imports.progress(await ctx.scope(), ctx.lang, input.id));
  r.call(c.confirmItemImport, async (input, ctx) => imports.confirm(ctx.actor, await ctx.scope(), ctx.lang, input.id));
  r.call(c.itemImportErrors, async (input, ctx) => imports.errorWorkbook(await ctx.scope(), input.id));
}
