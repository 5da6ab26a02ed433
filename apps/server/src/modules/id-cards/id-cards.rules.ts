import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';

const OWNER_SIDE_ROLES = new Set(['customer', 'operator', 'admin-none']);

/**
 * The one rule of every ID-card call (list and search, upload, images, bulk import, its error
 * workbook, the template): only the customer's own users and operators add or see ID cards.
 * Agents are refused whatever their grants say — finding 6 of issue 10: an agent replaced a
 * customer's card image through the single upload, and the search told it whether an ID
 * number was on file. Which customer's cards a caller may touch is still the tenant scope.
 */
export function assertIdCardCaller(actor: Actor): void {
  if (!OWNER_SIDE_ROLES.has(actor.role)) throw AppError.forbidden('idCardOwnerOnly');
}
