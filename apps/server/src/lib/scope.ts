import type { Role } from '@console/contract';
import { sql, type SelectQueryBuilder, type UpdateQueryBuilder, type DeleteQueryBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import { AppError } from './errors.ts';

/** Who is calling: resolved from the access token on every call. */
export interface Actor {
  userId: number;
  name: string;
  displayName: string;
  role: Role;
  /** The customer a customer user belongs to. */
  customerId: number | null;
  sessionId: number;
  permissions: ReadonlySet<string>;
  /** A one-time password not yet changed: only `callsBeforePasswordChange` are answered. */
  mustChangePassword?: boolean;
}

/**
 * The one tenant rule (ARCHITECTURE.md "Who sees what"): customers see their own records,
 * agents their customers', operators and admin-none everything. Every repository
 * query of tenant data filters through `inScope`.
 */
export type Scope = { readonly all: true } | { readonly all: false; readonly customerIds: readonly number[] };

export async function scopeOf(db: Database, actor: Actor): Promise<Scope> {
  if (actor.role === 'operator' || actor.role === 'admin-none') return { all: true };
  if (actor.role === 'agent') {
    const rows = await db.selectFrom('customers').select('id').where('agent_user_id', '=', actor.userId).execute();
    return { all: false, customerIds: rows.map((r) => r.id) };
  }
  return { all: false, customerIds: actor.customerId ? [actor.customerId] : [] };
}

export const scopeAllows = (scope: Scope, customerId: number) => scope.all || scope.customerIds.includes(customerId);

type Filterable =
  SelectQueryBuilder<any, any, any> | UpdateQueryBuilder<any, any, any, any> | DeleteQueryBuilder<any, any, any>;

/**
 * Restrict a query to the scope, on the given customer-id column. `likely` (SQLite only: the
 * caller checks the dialect) tells SQLite's planner that the scope keeps most rows, so it reads
 * an index in the list's order and stops after the page instead of fetching every row of an
 * agent's customers to sort them (the item list; the condition is the same).
 */
export function inScope<Q extends Filterable>(qb: Q, column: string, scope: Scope, likely = false): Q {
  if (scope.all) return qb;
  // An empty scope must match nothing (IN () is not valid SQL everywhere).
  if (scope.customerIds.length === 0) return (qb as any).where(sql<boolean>`1 = 0`);
  if (likely && scope.customerIds.length > 1) {
    return (qb as any).where(sql<boolean>`likely(${sql.ref(column)} in (${sql.join(scope.customerIds)}))`);
  }
  return (qb as any).where(column, 'in', scope.customerIds);
}

/**
 * The customer a write is for. A customer acts for itself whatever it passes; an
 * agent or operator must name a customer inside its scope.
 */
export function customerFor(actor: Actor, scope: Scope, requested: number | undefined | null): number {
  if (actor.role === 'customer') {
    if (!actor.customerId) throw AppError.forbidden();
    if (requested != null && requested !== actor.customerId) throw AppError.field('customerId', 'customerOutOfScope');
    return actor.customerId;
  }
  if (requested == null) throw AppError.field('customerId', 'customerRequired');
  if (!scopeAllows(scope, requested)) throw AppError.field('customerId', 'customerOutOfScope');
  return requested;
}
