import { type ApiLanguage, ErrorCode, checkIdCard, orders } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { audit } from '../../lib/audit.ts';
import { maskIdCard, maskName } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope, scopeAllows } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { createIdCardImport } from './id-cards.import.ts';
import { imageKind } from './id-cards.upload.ts';
import { createIdCardsRepository } from './id-cards.repository.ts';
import { assertIdCardCaller } from './id-cards.rules.ts';
import { createOrdersRepository } from '../orders/index.ts';

const ID_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const ID_IMAGE_MIN_BYTES = 1024;
const OPERATOR_ROLES = new Set(['operator', 'admin-none']);

/**
 * Promise-letter ID cards: the list, one image uploaded for an order or a person, the images read
 * back (audited), and the bulk mapping import (id-cards.import.ts).
 */
export function createIdCardsService(db: Database, clock: () => Date, files: Files) {
  const repo = createOrdersRepository(db);
  const idCardsRepo = createIdCardsRepository(db);
  const bulkIdCards = createIdCardImport(db, clock, files);
  const now = () => clock().toISOString();

  const presentIdCard = (r: {
    id: number;
    customer_id: number;
    order_id: number | null;
    order_no: string | null;
    name: string;
    id_card: string;
    front_file_id: number | null;
    back_file_id: number | null;
    created_at: string;
  }) => ({
    id: r.id,
    customerId: r.customer_id,
    orderId: r.order_id,
    orderNo: r.order_no,
    name: maskName(r.name),
    idCard: maskIdCard(r.id_card),
    hasFront: r.front_file_id !== null,
    hasBack: r.back_file_id !== null,
    createdAt: r.created_at,
  });

  /**
   * The one order in scope a number names, whatever its kind (order, waybill, split waybill,
   * system, reference number: what the screens show), as Order Search resolves numbers. A batch
   * number names many orders, and two customers may use one order number: those are 422s
   * asking for a number of one order, never a guess.
   */
  async function orderByNumber(scope: Scope, number: string): Promise<number> {
    const rows = (await repo.findByAnyNumber(scope, [number])).filter((r) =>
      [r.order_no, r.waybill_no, r.split_waybill_no, r.system_no, r.user_ref_no].includes(number),
    );
    if (!rows.length) throw AppError.field('orderNo', 'idCardOrderNotFound');
    if (rows.length > 1) throw AppError.field('orderNo', 'idCardOrderAmbiguous');
    return rows[0]!.id;
  }

  return {
    async idCards(actor: Actor, scope: Scope, p: orders.AttentionRequest) {
      assertIdCardCaller(actor);
      const { total, rows } = await idCardsRepo.page(scope, p);
      return { total, list: rows.map(presentIdCard) };
    },
    async uploadIdCard(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      p: {
        side: 'front' | 'back';
        orderId?: number;
        orderNo?: string;
        customerId?: number;
        name?: string;
        idCard?: string;
      },
      file: { filename: string; data: Buffer } | undefined,
    ) {
      assertIdCardCaller(actor);
      if (!file) throw AppError.field('file', 'fileRequired');
      if (file.data.length > ID_IMAGE_MAX_BYTES)
        throw AppError.field('file', translate(lang, 'imageTooLarge', { mb: 5 }));
      if (file.data.length < ID_IMAGE_MIN_BYTES) throw AppError.field('file', 'imageTooSmall');
      const kind = imageKind(file.data);
      if (!kind) throw AppError.field('file', translate(lang, 'fileTypeNotAllowed', { types: 'jpg, jpeg, png' }));
      let target: { customerId: number; orderId: number | null; name: string; idCard: string };
      const orderId = p.orderNo?.trim() ? await orderByNumber(scope, p.orderNo.trim()) : p.orderId;
      if (orderId) {
        const o = await repo.find(scope, orderId);
        if (!o) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound');
        target = { customerId: o.customer_id, orderId: o.id, name: o.recipient_name, idCard: o.recipient_id_card };
      } else {
        if (!p.name || !p.idCard) throw AppError.field('idCard', 'idCardNeedsTarget');
        const check = checkIdCard(p.idCard, clock());
        if (!check.ok) throw AppError.field('idCard', `idCard_${check.problem}`);
        target = {
          customerId: customerFor(actor, scope, p.customerId),
          orderId: null,
          name: p.name,
          idCard: p.idCard.toUpperCase(),
        };
      }
      const stored = await files.write(file.data, `idcard.${kind}`);
      const at = now();
      // A transaction that fails takes the image's bytes with it: no row would name them.
      return files.recording(stored, () =>
        db.transaction().execute(async (trx) => {
          const fileId = await files.record(
            stored,
            {
              customer_id: target.customerId,
              owner_user_id: actor.userId,
              kind: 'idCard',
              name: file.filename.slice(0, 200) || `idcard.${kind}`,
              mime: kind === 'png' ? 'image/png' : 'image/jpeg',
              created_at: at,
            },
            trx,
          );
          const row = await idCardsRepo.findFor(trx, target.customerId, target.idCard, target.orderId);
          const column = p.side === 'front' ? 'front_file_id' : 'back_file_id';
          let id: number;
          if (row) {
            await idCardsRepo.setImage(trx, row.id, column, fileId, at);
            id = row.id;
          } else {
            id = await idCardsRepo.insertReturningId(trx, {
              customer_id: target.customerId,
              order_id: target.orderId,
              name: target.name,
              id_card: target.idCard,
              [column]: fileId,
              created_by: actor.userId,
              created_at: at,
              updated_at: at,
            });
          }
          return presentIdCard(await idCardsRepo.listed(trx, id));
        }),
      );
    },
    /** Only the owning customer's users and operators see the images (agents do not). */
    async idCardImage(actor: Actor, scope: Scope, id: number, side: 'front' | 'back', ip = '') {
      assertIdCardCaller(actor);
      const row = await idCardsRepo.byId(id);
      const allowed =
        row &&
        (OPERATOR_ROLES.has(actor.role) ||
          (actor.role === 'customer' && actor.customerId === row.customer_id && scopeAllows(scope, row.customer_id)));
      if (!row || !allowed) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      const fileId = side === 'front' ? row.front_file_id : row.back_file_id;
      if (!fileId) throw new AppError(ErrorCode.NOT_FOUND, 'idCardImageMissing');
      const f = await idCardsRepo.image(fileId);
      // Reading someone's ID card is a sensitive read: the audit log says who saw whose (issue 17).
      await audit(db, { actor, ip }, { action: 'idCard.image', target: `idCard:${id}`, detail: side }, clock());
      return {
        filename: `idcard-${id}-${side}.${f.mime === 'image/png' ? 'png' : 'jpg'}`,
        mime: f.mime,
        body: (await files.open(f.storage_key)).body,
      };
    },
    idCardTemplate(actor: Actor, lang: ApiLanguage) {
      assertIdCardCaller(actor);
      return bulkIdCards.template(lang);
    },
    importIdCards: bulkIdCards.import,
    idCardImportErrors: bulkIdCards.errorFile,
  };
}
export type IdCardsService = ReturnType<typeof createIdCardsService>;
