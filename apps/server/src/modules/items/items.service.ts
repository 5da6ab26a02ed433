import { type ApiLanguage, ErrorCode, items as C, isValidJan, type ParsedRequest } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { classifyDatabaseError } from '../../http/error-handler.ts';
import { AppError } from '../../lib/errors.ts';
import type { StaffWrite } from '../../lib/staff-writes.ts';
import { StaleVersion, versionedSave } from '../../lib/versions.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { createItemImages } from './items.images.ts';
import { createItemAdjustments, presentAdjustment } from './items.adjustments.ts';
import { type Change, CLEARANCE_KEYS, type ClearanceKey, COLUMNS } from './items.fields.ts';
import { createItemsRepository, type Db, type ItemRecord } from './items.repository.ts';

/**
 * The item catalogue and its review workflow (docs/decisions.md "Items"): create → pending;
 * operators approve or fail with a reason; a fix of a failed item resubmits it; a change of an
 * approved item's clearance data sends it back to pending; an operator's adjustment waits for
 * the customer to adopt (apply) or reject it. Every step is an event of the item's history.
 */

/** "12" → "12.00", "012.5" → "12.50": one spelling per amount, so a change is a real change. */
export function normalizeDecimal(s: string): string {
  const [int = '0', frac = ''] = s.split('.');
  return `${BigInt(int).toString()}.${frac.padEnd(2, '0')}`;
}

export function createItemsService(
  db: Database,
  clock: () => Date,
  files: Files,
  opts: { readCacheEntries?: number } = {},
) {
  const repo = createItemsRepository(db, opts);
  const now = () => clock().toISOString();
  // Reference lists change only by migration: read once per process.
  let refs: ReturnType<typeof repo.reference> | undefined;
  const reference = () => (refs ??= repo.reference());

  async function present(r: ItemRecord): Promise<C.ItemRow> {
    const ref = await reference();
    const part = ref.parts.find((p) => p.id === r.part_id);
    const brand = ref.brands.find((p) => p.id === r.brand_id);
    const category = ref.categories.find((p) => p.id === r.category_id);
    const exportCategory = ref.exportCategories.find((p) => p.code === r.export_category);
    const tax = ref.taxes.find((p) => p.code === r.tax_code);
    const named = (x: { id: number; name_zh: string; name_en: string } | undefined) =>
      x ? { id: x.id, name: { zh: x.name_zh, en: x.name_en } } : null;
    return {
      id: r.id,
      version: r.version,
      customerId: r.customer_id,
      customerCode: r.customer_code,
      jan: r.jan,
      nameZh: r.name_zh,
      nameEn: r.name_en,
      nameJa: r.name_ja,
      specs: r.specs,
      essentials: r.essentials,
      part: named(part),
      brand: named(brand),
      category: category
        ? {
            ...named(category)!,
            path: category.path
              .split('/')
              .filter(Boolean)
              .map((id) => ref.categories.find((c) => c.id === Number(id)))
              .filter((c) => c !== undefined)
              .map((c) => ({ zh: c.name_zh, en: c.name_en })),
          }
        : null,
      newCategory: r.new_category,
      exportCategory: exportCategory
        ? { code: exportCategory.code, name: { zh: exportCategory.name_zh, en: exportCategory.name_en } }
        : null,
      group: r.group_name,
      tariff: r.tariff,
      netWeightG: r.net_weight_g,
      clearancePrice: r.clearance_price,
      declarationPrice: r.declaration_price,
      origin: r.origin,
      tax: tax
        ? {
            code: tax.code,
            name: { zh: tax.name_zh, en: tax.name_en },
            unit: tax.unit_en,
            amount: tax.amount,
            rate: tax.rate,
          }
        : null,
      imageId: r.image_file_id,
      status: r.status as C.ItemRow['status'],
      reason: r.reason,
      pendingAdjustments: r.pending_adjustments,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }
  /** The tax unit in the caller's language (the only item text the server words itself). */
  async function localise(row: C.ItemRow, lang: ApiLanguage): Promise<C.ItemRow> {
    if (!row.tax || lang === 'en') return row;
    const tax = (await reference()).taxes.find((t) => t.code === row.tax!.code);
    return { ...row, tax: { ...row.tax, unit: tax?.unit_zh ?? row.tax.unit } };
  }
  const out = async (r: ItemRecord, lang: ApiLanguage) => localise(await present(r), lang);

  /**
   * The rules item/create and item/update add to the contract's schema: JAN check digit, the
   * references exist, the image is the customer's own. Answers the problems by field (message
   * keys) or the normalised column values. The item import checks every row with it too.
   */
  async function checkClearance(
    fields: Partial<Record<ClearanceKey, unknown>>,
    customerId: number,
  ): Promise<
    | { errors: Record<string, string[]>; cols?: undefined }
    | { errors?: undefined; cols: Partial<Record<(typeof COLUMNS)[ClearanceKey], unknown>> }
  > {
    const ref = await reference();
    const errors: Record<string, string[]> = {};
    const v = { ...fields } as Record<string, unknown>;
    if (typeof v.jan === 'string' && !isValidJan(v.jan)) errors.jan = ['itemJanCheckDigit'];
    if (v.partId != null && !ref.parts.some((p) => p.id === v.partId)) errors.partId = ['itemPartUnknown'];
    if (v.brandId != null && !ref.brands.some((p) => p.id === v.brandId)) errors.brandId = ['itemBrandUnknown'];
    if (v.categoryId != null && !ref.categories.some((p) => p.id === v.categoryId))
      errors.categoryId = ['itemCategoryUnknown'];
    if (v.exportCategory != null && !ref.exportCategories.some((p) => p.code === v.exportCategory))
      errors.exportCategory = ['itemExportCategoryUnknown'];
    if (v.taxCode != null && !ref.taxes.some((p) => p.code === v.taxCode)) errors.taxCode = ['itemTaxUnknown'];
    if (v.imageId != null) {
      const image = await repo.image(v.imageId as number);
      // Someone else's image id is as unknown as a missing one.
      if (!image || image.customer_id !== customerId) errors.imageId = ['itemImageUnknown'];
    }
    if (Object.keys(errors).length) return { errors };
    for (const k of ['clearancePrice', 'declarationPrice'] as const)
      if (typeof v[k] === 'string') v[k] = normalizeDecimal(v[k]);
    const cols: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v))
      if (k in COLUMNS && val !== undefined) cols[COLUMNS[k as ClearanceKey]] = val;
    return { cols };
  }

  /** Checks the references and normalises; answers the column values of the given clearance fields. */
  async function clearanceColumns(fields: Partial<Record<ClearanceKey, unknown>>, customerId: number) {
    const r = await checkClearance(fields, customerId);
    if (r.errors) throw AppError.validation(r.errors);
    return r.cols;
  }

  const diff = (item: ItemRecord, cols: Record<string, unknown>): Change[] =>
    CLEARANCE_KEYS.filter((k) => COLUMNS[k] in cols && cols[COLUMNS[k]] !== item[COLUMNS[k]]).map((k) => ({
      field: k,
      before: item[COLUMNS[k]],
      after: cols[COLUMNS[k]],
    }));

  /** A duplicate JAN, whichever of two simultaneous writes loses, is the same 422 on `jan`. */
  const janDuplicate = (e: unknown) => {
    const c = classifyDatabaseError(e);
    if (c?.kind === 'unique' && c.columns.includes('jan')) return AppError.field('jan', 'itemJanDuplicate');
    return e;
  };

  async function loadOr404(q: Db, scope: Scope, id: number) {
    const item = await repo.find(q, scope, id);
    if (!item) throw new AppError(ErrorCode.NOT_FOUND, 'catalogueItemNotFound');
    return item;
  }

  return {
    /**
     * Every rule of item/create past the contract's schema, without writing: the problems by
     * field (message keys), or the row to insert (the item import checks each row with it).
     */
    async checkNew(
      input: C.ItemInput,
      customerId: number,
    ): Promise<
      { errors: Record<string, string[]>; values?: undefined } | { errors?: undefined; values: NewItemValues }
    > {
      const r = await checkClearance(pickClearance(input), customerId);
      const errors = { ...r.errors };
      if (!hasCategory(input)) (errors.categoryId ??= []).push('itemCategoryOrNew');
      if (Object.keys(errors).length) return { errors };
      return { values: { ...(r.cols as NewItemValues), group_name: input.group } };
    },
    janDuplicate,
    reference,

    async list(scope: Scope, lang: ApiLanguage, f: C.ItemListRequest) {
      const { total, rows } = await repo.list(scope, f);
      return { total, list: await Promise.all(rows.map((r) => out(r, lang))) };
    },

    async detail(scope: Scope, lang: ApiLanguage, id: number): Promise<C.ItemDetail> {
      const item = await loadOr404(db, scope, id);
      const [events, adjustments] = await Promise.all([repo.events(id), repo.adjustmentsOfItem(id)]);
      return {
        ...(await out(item, lang)),
        history: events.map((e) => ({
          id: e.id,
          kind: e.kind as C.ItemDetail['history'][number]['kind'],
          by: e.display_name,
          byRole: e.role,
          at: e.at,
          note: e.note,
          status: e.status as C.ItemRow['status'],
          changes: JSON.parse(e.changes) as Change[],
        })),
        adjustments: adjustments.map(presentAdjustment),
      };
    },

    async create(actor: Actor, scope: Scope, lang: ApiLanguage, input: ParsedRequest<typeof C.createItem>) {
      const customerId = customerFor(actor, scope, input.customerId);
      if (!hasCategory(input)) throw AppError.field('categoryId', 'itemCategoryOrNew');
      const cols = await clearanceColumns(pickClearance(input), customerId);
      const at = now();
      try {
        const id = await db.transaction().execute(async (trx) => {
          const id = await repo.insert(trx, {
            ...(cols as ItemRecord),
            customer_id: customerId,
            group_name: input.group,
            status: 'pending',
            reason: null,
            created_by: actor.userId,
            created_at: at,
            updated_at: at,
          });
          await repo.addEvent(trx, {
            item_id: id,
            kind: 'created',
            user_id: actor.userId,
            note: null,
            status: 'pending',
            changes: [],
            at,
          });
          return id;
        });
        return out((await repo.find(db, { all: true }, id))!, lang);
      } catch (e) {
        throw janDuplicate(e);
      }
    },

    async update(actor: Actor, scope: Scope, lang: ApiLanguage, input: ParsedRequest<typeof C.updateItem>) {
      return versionedSave(
        () => this.writeUpdate(actor, scope, lang, input),
        () => this.detail(scope, lang, input.id),
      );
    },
    async writeUpdate(actor: Actor, scope: Scope, lang: ApiLanguage, input: ParsedRequest<typeof C.updateItem>) {
      if (!hasCategory(input)) throw AppError.field('categoryId', 'itemCategoryOrNew');
      const at = now();
      try {
        await db.transaction().execute(async (trx) => {
          const item = await loadOr404(trx, scope, input.id);
          // Before the no-change shortcut: a form loaded from an older version saw other values.
          if (input.version !== undefined && input.version !== item.version) throw new StaleVersion();
          const cols = await clearanceColumns(pickClearance(input), item.customer_id);
          const changes = diff(item, cols);
          const groupChanged = input.group !== item.group_name;
          const resubmit = item.status === 'failed';
          if (!changes.length && !groupChanged && !resubmit) return;
          // A fixed failed item is resubmitted; changed clearance data is reviewed again; the group alone is not.
          const status = resubmit || changes.length ? 'pending' : item.status;
          const updated = await repo.update(
            trx,
            item.id,
            {
              ...(cols as Partial<ItemRecord>),
              group_name: input.group,
              status,
              reason: status === 'pending' ? null : item.reason,
              updated_at: at,
            },
            item.status,
            input.version,
          );
          // Changed meanwhile (by a save from the same version, or reviewed): the caller saw a state that is gone.
          if (!updated) throw input.version !== undefined ? new StaleVersion() : AppError.conflict('dbConflict');
          if (changes.length) await repo.supersedeAdjustments(trx, item.id, at, actor.userId);
          await repo.addEvent(trx, {
            item_id: item.id,
            kind: resubmit ? 'resubmitted' : 'updated',
            user_id: actor.userId,
            note: null,
            status,
            changes: groupChanged
              ? [...changes, { field: 'group', before: item.group_name, after: input.group }]
              : changes,
            at,
          });
        });
      } catch (e) {
        throw janDuplicate(e);
      }
      return out((await repo.find(db, scope, input.id))!, lang);
    },

    async review(
      staff: StaffWrite,
      actor: Actor,
      lang: ApiLanguage,
      id: number,
      verdict: 'approved' | 'failed',
      reason?: string,
    ) {
      const at = now();
      await db.transaction().execute(async (trx) => {
        const item = await loadOr404(trx, { all: true }, id);
        const ok = await repo.update(
          trx,
          id,
          { status: verdict, reason: verdict === 'failed' ? reason! : null, updated_at: at },
          'pending',
        );
        if (!ok || item.status !== 'pending') throw AppError.conflict('itemNotPending');
        await repo.addEvent(trx, {
          item_id: id,
          kind: verdict,
          user_id: actor.userId,
          note: reason ?? null,
          status: verdict,
          changes: [],
          at,
        });
        // The review of a customer's item is a staff write on its data (issue 36 #6).
        const after = { status: verdict, reason: verdict === 'failed' ? reason! : null };
        await staff.record(trx, {
          target: `item:${id}`,
          customerId: item.customer_id,
          before: { status: item.status, reason: item.reason },
          after,
        });
      });
      return out((await repo.find(db, { all: true }, id))!, lang);
    },

    ...createItemAdjustments({ db, now, repo, loadOr404, clearanceColumns, diff, out }),
    ...createItemImages(repo, files, now),

    /** The customer's catalogue entry for a JAN, for order entry (`order/getItemByJan`). */
    async byJan(customerId: number, jan: string) {
      const r = await repo.idByJan(customerId, jan);
      if (!r) return null;
      const item = (await repo.find(db, { all: true }, r.id))!;
      const brand = (await reference()).brands.find((b) => b.id === item.brand_id);
      return {
        status: item.status as C.ItemStatus,
        name: item.name_zh,
        brand: brand?.name_zh ?? null,
        spec: item.specs,
        price: item.declaration_price,
        origin: item.origin,
      };
    },

    parts: async () => (await reference()).parts.map((p) => ({ id: p.id, name: { zh: p.name_zh, en: p.name_en } })),
    async brands(keyword: string | undefined) {
      const k = keyword?.toLowerCase();
      return (await reference()).brands
        .filter((b) => !k || b.name_zh.toLowerCase().includes(k) || b.name_en.toLowerCase().includes(k))
        .map((p) => ({ id: p.id, name: { zh: p.name_zh, en: p.name_en } }));
    },
    async categories(): Promise<C.CategoryNode[]> {
      const all = (await reference()).categories;
      const node = (c: (typeof all)[number]): C.CategoryNode => ({
        id: c.id,
        name: { zh: c.name_zh, en: c.name_en },
        children: all.filter((x) => x.parent_id === c.id).map(node),
      });
      return all.filter((c) => c.parent_id === null).map(node);
    },
    exportCategories: async () =>
      (await reference()).exportCategories.map((c) => ({ code: c.code, name: { zh: c.name_zh, en: c.name_en } })),
    async taxes(lang: ApiLanguage) {
      return (await reference()).taxes.map((t) => ({
        code: t.code,
        name: { zh: t.name_zh, en: t.name_en },
        unit: lang === 'en' ? t.unit_en : t.unit_zh,
        amount: t.amount,
        rate: t.rate,
      }));
    },
  };
}

/** Columns of a new item that come from its input (the rest: customer, status, who and when). */
export type NewItemValues = Omit<
  ItemRecord,
  | 'id'
  | 'customer_id'
  | 'customer_code'
  | 'pending_adjustments'
  | 'status'
  | 'reason'
  | 'created_by'
  | 'created_at'
  | 'updated_at'
>;

/** A new item names a category from the list or describes a new one. */
const hasCategory = (input: { categoryId: number | null; newCategory: string }) =>
  input.categoryId != null || !!input.newCategory;

function pickClearance(input: C.ItemInput): Partial<Record<ClearanceKey, unknown>> {
  const out: Partial<Record<ClearanceKey, unknown>> = {};
  for (const k of CLEARANCE_KEYS) out[k] = input[k];
  return out;
}

export type ItemsService = ReturnType<typeof createItemsService>;
