/**
 * What other modules use of interceptions: a module reaches another only through its index.ts
 * (eslint import-x zones, docs/decisions/2026-11-27-import-layering-lint.md). The v1 API's
 * intercept call (modules/orders) is the console's interception.
 */
export type { InterceptionsService } from './interceptions.service.ts';
