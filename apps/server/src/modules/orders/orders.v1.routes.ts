import { ErrorCode, v1 } from '@console/contract';
import type { V1Registrar } from '../../http/register-v1.ts';
import { presentV1Order } from '../../domain/v1-order.ts';
import { AppError } from '../../lib/errors.ts';
import type { Database } from '../../db/database.ts';
import type { OrdersService } from './orders.service.ts';
import { createOrdersV1Repository } from './orders.v1.repository.ts';

export type V1OrderRow = NonNullable<Awaited<ReturnType<ReturnType<typeof createOrdersV1Repository>['byId']>>>;

/** A cursor is the last order's (updated_at, id), opaque to clients: base64url of its JSON. */
const cursorOf = (r: V1OrderRow) => Buffer.from(JSON.stringify([r.updated_at, r.id])).toString('base64url');
function positionOf(cursor: string): { updatedAt: string; id: number } {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof updatedAt === 'string' && !Number.isNaN(Date.parse(updatedAt)) && Number.isSafeInteger(id)) {
      return { updatedAt, id: id as number };
    }
  } catch {
    /* said below */
  }
  throw AppError.field('query.cursor', 'cursor');
}

/**
 * The v1 order calls (issue 39). Creating is the console's single create itself (same service,
 * rules, defaults and messages); reading goes through the same tenant rule (`inScope`) with the
 * key's scope.
 */
export function ordersV1Routes(r: V1Registrar, db: Database, service: OrdersService) {
  const repo = createOrdersV1Repository(db);
  r.call(v1.createOrder, async ({ body }, ctx) => service.create(ctx.actor, ctx.scope, ctx.lang, body));
  r.call(v1.getOrder, async ({ params }, ctx) => {
    const row = await repo.byId(ctx.scope, params.id);
    // Another tenant's order is as unknown as a missing one.
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
    return presentV1Order(row);
  });
  r.call(v1.listOrders, async ({ query }, ctx) => {
    const rows = await repo.page(ctx.scope, {
      after: query.cursor ? positionOf(query.cursor) : undefined,
      updatedSince: query.updatedSince,
      status: query.status,
      channel: query.channel,
      orderNo: query.orderNo,
      customerId: query.customerId,
      // One more than asked tells whether a next page exists.
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    return { list: page.map(presentV1Order), nextCursor: rows.length > query.limit ? cursorOf(page.at(-1)!) : null };
  });
}
