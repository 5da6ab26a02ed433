import { ErrorCode, v1 } from '@console/contract';
import { appErrorBody } from '../../http/error-handler.ts';
import { parsed, type V1Registrar } from '../../http/register-v1.ts';
import { AppError } from '../../lib/errors.ts';
import type { OrdersService } from './orders.service.ts';

type Result = v1.V1Response<typeof v1.createOrdersBatch>['results'][number];

/**
 * `POST /api/v1/orders/batch` (issue 39): up to 500 orders, each checked and made by the console's
 * single create (its request schema, then its service: the rules, defaults, messages and notices
 * the console and the batch import share), one after another, each in its own transaction. A
 * refused order is answered with the console's error envelope and does not stop the others.
 */
export function ordersV1BatchRoutes(r: V1Registrar, service: OrdersService) {
  r.call(v1.createOrdersBatch, async ({ body }, ctx) => {
    const results: Result[] = [];
    let created = 0;
    for (const [index, raw] of body.orders.entries()) {
      try {
        const order = await service.create(
          ctx.actor,
          ctx.scope,
          ctx.lang,
          parsed(v1.createOrder.body, raw, ctx.lang, 'body'),
        );
        results.push({ index, status: 'created', order });
        created++;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        // Notices to agree before ordering refuse the call as they refuse the single create,
        // unless some orders were made before they appeared: then each later order says so.
        if (e.code === ErrorCode.NOTICES_PENDING && created === 0) throw e;
        const orderNo = typeof raw.orderNo === 'string' ? raw.orderNo : null;
        results.push({ index, status: 'refused', orderNo, error: appErrorBody(ctx.lang, e) });
      }
    }
    return { created, refused: results.length - created, results };
  });
}
