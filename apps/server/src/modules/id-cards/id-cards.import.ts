import { type ApiLanguage, checkIdCard, ErrorCode, orders } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { errorFileName, errorWorkbook } from './id-cards.error-workbook.ts';
import { createIdCardsRepository } from './id-cards.repository.ts';
import { assertIdCardCaller } from './id-cards.rules.ts';
import { type Column, idCardTemplate } from './id-cards.template.ts';
import {
  baseName,
  FileProblem,
  imageKind,
  imageProblem,
  type ParsedRow,
  readUpload,
  type Sheet,
} from './id-cards.upload.ts';

const OPERATOR_ROLES = new Set(['operator', 'admin-none']);
/** `files.kind` of a refused import's error workbook. */
const ID_IMPORT_ERRORS_KIND = 'idCardImportErrors';

/** The ID-card bulk mapping: its template and its all-or-nothing import. */
export function createIdCardImport(db: Database, clock: () => Date, files: Files) {
  const repo = createIdCardsRepository(db);

  return {
    template: idCardTemplate,

    /**
     * Every row is checked before anything is stored; the writes are one transaction.
     * Only the customer's own users and operators may add ID cards (agents may not see
     * them either), so an agent is refused outright.
     */
    async import(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      requestedCustomer: number | undefined,
      file: { filename: string; data: Buffer } | undefined,
    ) {
      assertIdCardCaller(actor);
      if (!file) throw AppError.field('file', 'fileRequired');
      const customerId = customerFor(actor, scope, requestedCustomer);
      const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);

      let rows: ParsedRow[];
      let sheet: Sheet;
      let images: Map<string, Buffer> | null;
      try {
        ({ rows, sheet, images } = await readUpload(file.data));
      } catch (e) {
        if (e instanceof FileProblem) throw AppError.validation({ file: [t(e.key, e.params)] });
        throw e;
      }

      // Check every row; collect all errors, write nothing if there is one.
      const errors: Record<string, string[]> = {};
      const byRow = new Map<number, { column: Column; text: string }[]>();
      const err = (row: number, column: Column, key: string, params?: Record<string, string | number>) => {
        const text = t(key, params);
        (errors[`rows.${row}.${column}`] ??= []).push(text);
        byRow.set(row, [...(byRow.get(row) ?? []), { column, text }]);
      };
      const orderNos = [...new Set(rows.map((r) => r.values.orderNo).filter(Boolean))];
      const waybillNos = [...new Set(rows.map((r) => r.values.waybillNo.toUpperCase()).filter(Boolean))];
      const found = await repo.ordersByNumbers(scope, customerId, orderNos, waybillNos);
      const byOrderNo = new Map(found.map((o) => [o.order_no, o]));
      const byWaybill = new Map(found.filter((o) => o.waybill_no).map((o) => [o.waybill_no!, o]));
      const usedImages = new Set<string>();
      const seen = new Map<string, number>();
      const now = clock();
      const plan: {
        orderId: number | null;
        name: string;
        idCard: string;
        front: string | null;
        back: string | null;
      }[] = [];
      for (const { row, values: v } of rows) {
        const before = Object.keys(errors).length;
        if (!v.name) err(row, 'name', 'idCardRowRequired');
        const idCard = v.idCard.toUpperCase();
        if (!idCard) err(row, 'idCard', 'idCardRowRequired');
        else {
          const c = checkIdCard(idCard, now);
          if (!c.ok) err(row, 'idCard', `idCard_${c.problem}`);
        }
        let order: (typeof found)[number] | undefined;
        if (v.orderNo) {
          order = byOrderNo.get(v.orderNo);
          if (!order) err(row, 'orderNo', 'idCardOrderUnknown', { value: v.orderNo });
        }
        if (v.waybillNo) {
          const w = byWaybill.get(v.waybillNo.toUpperCase());
          if (!w) err(row, 'waybillNo', 'idCardWaybillUnknown', { value: v.waybillNo });
          else if (order && order.id !== w.id) err(row, 'waybillNo', 'idCardWaybillOtherOrder', { value: v.waybillNo });
          else order = w;
        }
        if (order && idCard && order.recipient_id_card.toUpperCase() !== idCard)
          err(row, 'idCard', 'idCardNotOrderRecipient', { orderNo: order.order_no });
        if (order && v.name && order.recipient_name.trim() !== v.name)
          err(row, 'name', 'idCardNotOrderRecipient', { orderNo: order.order_no });
        for (const side of ['front', 'back'] as const) {
          const name = v[side];
          if (!name) continue;
          if (!images) {
            err(row, side, 'idCardImageNeedsZip', { value: name });
            continue;
          }
          const img = images.get(baseName(name));
          if (!img) {
            err(row, side, 'idCardImageNotInZip', { value: name });
            continue;
          }
          usedImages.add(baseName(name));
          const problem = imageProblem(img);
          if (problem) err(row, side, problem[0], problem[1]);
        }
        // A duplicate is only meaningful once the row's order is known.
        const unresolved = (v.orderNo || v.waybillNo) && !order;
        const key = `${idCard}\u0000${order?.id ?? ''}`;
        const first = unresolved ? undefined : seen.get(key);
        if (first !== undefined) err(row, 'idCard', 'idCardDuplicateRow', { row: first });
        else if (!unresolved) seen.set(key, row);
        if (Object.keys(errors).length === before)
          plan.push({
            orderId: order?.id ?? null,
            name: v.name,
            idCard,
            front: v.front ? baseName(v.front) : null,
            back: v.back ? baseName(v.back) : null,
          });
      }
      const unused = images ? [...images.keys()].filter((n) => !usedImages.has(n)) : [];
      if (unused.length) (errors.file ??= []).push(t('idCardImagesUnused', { names: unused.slice(0, 10).join(', ') }));
      if (Object.keys(errors).length) {
        // The refusal stays a 422 listing every problem; when rows failed it also names a
        // workbook of them, which only the uploader (and operators) can download.
        if (byRow.size) {
          const id = await saveGeneratedFile(db, files, {
            kind: ID_IMPORT_ERRORS_KIND,
            name: errorFileName(file.filename),
            mime: XLSX_MIME,
            customerId,
            ownerUserId: actor.userId,
            data: await errorWorkbook(db, sheet, byRow, t),
            at: now.toISOString(),
          });
          errors[orders.ID_CARD_IMPORT_ERRORS_KEY] = [String(id)];
        }
        throw AppError.validation(errors);
      }

      // Store each distinct image once, then write every mapping in one transaction.
      const stored = new Map<string, { key: string; size: number; sha256: string; kind: 'jpg' | 'png' }>();
      for (const name of usedImages) {
        const data = images!.get(name)!;
        const kind = imageKind(data)!;
        stored.set(name, { ...(await files.write(data, `idcard.${kind}`)), kind });
      }
      const at = now.toISOString();
      let created = 0;
      let updated = 0;
      await db.transaction().execute(async (trx) => {
        const fileIds = new Map<string, number>();
        for (const [name, s] of stored) {
          fileIds.set(
            name,
            await files.record(
              s,
              {
                customer_id: customerId,
                owner_user_id: actor.userId,
                kind: 'idCard',
                name: name.slice(0, 200),
                mime: s.kind === 'png' ? 'image/png' : 'image/jpeg',
                created_at: at,
              },
              trx,
            ),
          );
        }
        const existing = await repo.existing(trx, customerId, [...new Set(plan.map((p) => p.idCard))]);
        const idOf = new Map(existing.map((e) => [`${e.id_card}\u0000${e.order_id ?? ''}`, e.id]));
        for (const p of plan) {
          const images = {
            ...(p.front ? { front_file_id: fileIds.get(p.front)! } : {}),
            ...(p.back ? { back_file_id: fileIds.get(p.back)! } : {}),
          };
          const id = idOf.get(`${p.idCard}\u0000${p.orderId ?? ''}`);
          if (id !== undefined) {
            await repo.update(trx, id, { name: p.name, ...images, updated_at: at });
            updated++;
          } else {
            await repo.insert(trx, {
              customer_id: customerId,
              order_id: p.orderId,
              name: p.name,
              id_card: p.idCard,
              ...images,
              created_by: actor.userId,
              created_at: at,
              updated_at: at,
            });
            created++;
          }
        }
      });
      return { rows: plan.length, created, updated, images: stored.size };
    },

    /** A refused import's error workbook: the uploader's own, or any for operators; else 404. */
    async errorFile(actor: Actor, fileId: number) {
      assertIdCardCaller(actor);
      const f = await loadGeneratedFile(db, files, {
        id: fileId,
        kind: ID_IMPORT_ERRORS_KIND,
        userId: actor.userId,
        anyOwner: OPERATOR_ROLES.has(actor.role),
      });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return { filename: f.name, mime: f.mime, body: f.body };
    },
  };
}
