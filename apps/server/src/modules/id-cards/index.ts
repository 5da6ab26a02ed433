/**
 * Promise-letter ID cards, a use case of their own (issue 40): the list and search, one card's
 * upload and images, the bulk mapping import and its error workbook. app.ts registers its routes;
 * no other module uses it. A module reaches another only through its index.ts
 * (docs/decisions/2026-11-27-import-layering-lint.md).
 */
export { idCardsRoutes } from './id-cards.routes.ts';
export { createIdCardsService, type IdCardsService } from './id-cards.service.ts';
