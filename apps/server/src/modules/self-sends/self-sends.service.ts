import { type ApiLanguage, type selfSends as C, type ParsedRequest } from '@console/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { createSelfSendsRepository } from './self-sends.repository.ts';

const iso = (t: string | Date) => new Date(t).toISOString();
/** As storage scans codes (storage-orders normalCode): trimmed, upper case. */
const normal = (s: string) => s.trim().toUpperCase();

/**
 * Inbound storage calls this in its transaction with the codes of the lines it writes: a code
 * that is a declared tracking number marks that parcel arrived. Returns the codes matched.
 */
export function matchSelfSends(
  trx: Transaction<DB>,
  m: { storageOrderId: number; customerId: number | null; codes: string[]; at: string },
) {
  return createSelfSendsRepository(trx as unknown as Database).markArrived(trx, m);
}

/** Self-sends: the customer declares parcels it sends itself; storage marks them arrived. */
export function createSelfSendsService(deps: { db: Database; clock: () => Date }) {
  const { db, clock } = deps;
  const repo = createSelfSendsRepository(db);

  async function page(scope: Scope, f: C.SelfSendListRequest, id?: number) {
    const { total, rows } = await repo.page(scope, f, id);
    const parcels = await repo.parcelsOf(rows.map((r) => r.id));
    return {
      total,
      list: rows.map((r): C.SelfSendRow => {
        const own = parcels.filter((p) => p.self_send_id === r.id);
        const arrivedCount = own.filter((p) => p.arrived_at !== null).length;
        return {
          id: r.id,
          customerId: r.customer_id,
          customerCode: r.customer_code,
          expressCompany: r.express_company as C.ExpressCompany,
          expressName: r.express_name,
          sendDate: r.send_date,
          expectedPieces: r.expected_pieces,
          arrivedCount,
          status: arrivedCount === 0 ? 'pending' : arrivedCount === own.length ? 'arrived' : 'partial',
          parcels: own.map((p) => ({
            trackingNo: p.tracking_no,
            arrivedAt: p.arrived_at ? iso(p.arrived_at) : null,
            storageNo: p.storage_no ?? null,
          })),
          remark: r.remark,
          createdAt: iso(r.created_at),
        };
      }),
    };
  }

  return {
    page: (scope: Scope, f: C.SelfSendListRequest) => page(scope, f),
    async save(actor: Actor, scope: Scope, lang: ApiLanguage, input: ParsedRequest<typeof C.saveSelfSend>) {
      const customerId = customerFor(actor, scope, input.customerId);
      if (input.expressCompany === 'other' && !input.expressName)
        throw AppError.field('expressName', 'selfSendExpressNameRequired');
      const codes = input.trackingNos.map(normal);
      const twice = codes.find((c, i) => codes.indexOf(c) !== i);
      if (twice)
        throw AppError.validation({ trackingNos: [translate(lang, 'selfSendTrackingTwice', { trackingNo: twice })] });
      const at = clock().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const seen = await repo.declared(trx, customerId, codes);
        if (seen.length) {
          throw AppError.validation({
            trackingNos: seen.map((s) => translate(lang, 'selfSendTrackingDeclared', { trackingNo: s.tracking_no })),
          });
        }
        return repo.insert(
          trx,
          {
            customer_id: customerId,
            express_company: input.expressCompany,
            express_name: input.expressCompany === 'other' ? input.expressName : null,
            send_date: input.sendDate,
            expected_pieces: input.expectedPieces,
            remark: input.remark,
            created_by: actor.userId,
            created_at: at,
          },
          codes,
        );
      });
      const saved = await page(scope, { offset: 0, limit: 1, order: 'desc', sort: 'createdAt' }, id);
      return saved.list[0]!;
    },
  };
}
export type SelfSendsService = ReturnType<typeof createSelfSendsService>;
