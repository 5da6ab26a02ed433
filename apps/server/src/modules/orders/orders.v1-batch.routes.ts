import { ErrorCode, v1 } from '@console/contract';
import { appErrorBody } from '../../http/error-handler.ts';
import { parsed, type V1Registrar } from '../../http/register-v1.ts';
import { AppError } from '../../lib/errors.ts';
import type { OrdersService } from './orders.service.ts';

type Result = v1.V1Response<typeof v1.createOrdersBatch>['results'][number];

/**
 * Orders made at once by one batch: a batch of 500 one after another took ~9 s on SQLite and over
 * 30 s on PostgreSQL (round trips per order); a few at a time overlap them without taking the
 * pool from other requests (DATABASE_POOL_SIZE is 10 by default).
 */
const LANES = 4;

/**
 * Orders that must be made one after another, as their order in the batch says: those sharing an
 * order number (the second is refused "exists", as a second single create would be) or a
 * recipient's ID card (the yearly limit counts the first before the second). The rest are
 * independent. Union-find over those keys; each group is one lane's sequence.
 */
function dependentGroups(orders: readonly Record<string, unknown>[]): number[][] {
  const parent = orders.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const firstWith = new Map<string, number>();
  orders.forEach((o, i) => {
    const recipient = o.recipient as Record<string, unknown> | undefined;
    const keys = [
      typeof o.orderNo === 'string' ? `n:${o.orderNo.trim().toUpperCase()}` : null,
      typeof recipient?.idCard === 'string' ? `c:${recipient.idCard.trim().toUpperCase()}` : null,
    ];
    for (const k of keys) {
      if (k === null) continue;
      const j = firstWith.get(k);
      if (j === undefined) firstWith.set(k, i);
      else parent[root(i)] = root(j);
    }
  });
  const groups = new Map<number, number[]>();
  orders.forEach((_, i) => {
    const r = root(i);
    groups.set(r, [...(groups.get(r) ?? []), i]);
  });
  return [...groups.values()];
}

/**
 * `POST /api/v1/orders/batch` (issue 39): up to 500 orders, each checked and made by the console's
 * single create (its request schema, then its service: the rules, defaults, messages and notices
 * the console and the batch import share), each in its own transaction. A refused order is
 * answered with the console's error envelope and does not stop the others. Orders that depend on
 * each other are made in the batch's order; independent ones a few at a time.
 */
export function ordersV1BatchRoutes(r: V1Registrar, service: OrdersService) {
  r.call(v1.createOrdersBatch, async ({ body }, ctx) => {
    const results: Result[] = new Array(body.orders.length);
    let created = 0;
    const makeOne = async (index: number) => {
      const raw = body.orders[index]!;
      try {
        const input = parsed(v1.createOrder.body, raw, ctx.lang, 'body');
        const order = await service.create(ctx.actor, ctx.scope, ctx.lang, input);
        results[index] = { index, status: 'created', order };
        created++;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        const orderNo = typeof raw.orderNo === 'string' ? raw.orderNo : null;
        results[index] = { index, status: 'refused', orderNo, error: appErrorBody(ctx.lang, e) };
        return e;
      }
      return null;
    };
    // Notices to agree before ordering refuse the call as they refuse the single create: the
    // first order alone tells, before any other is made (each later one still checks, and says so).
    const first = await makeOne(0);
    if (first?.code === ErrorCode.NOTICES_PENDING) throw first;
    const queue = dependentGroups(body.orders).map((g) => g.filter((i) => i !== 0));
    // An unexpected failure (the database gone) ends the call; the other lanes stop at their next order.
    let broken = false;
    const lane = async () => {
      try {
        for (let g = queue.shift(); g && !broken; g = queue.shift()) {
          for (const i of g) if (!broken) await makeOne(i);
        }
      } catch (e) {
        broken = true;
        throw e;
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    return { created, refused: results.length - created, results };
  });
}
