import type { items } from '@console/contract';
import { localized, t } from '@/lib';

/** An item as its edit form shows it (names, not ids), for the stale-save dialog (components/stale-save). */
export const itemAsShown = (r: items.ItemRow) => ({
  jan: r.jan,
  nameZh: r.nameZh,
  nameEn: r.nameEn,
  nameJa: r.nameJa,
  specs: r.specs,
  part: r.part ? localized(r.part.name) : null,
  brand: r.brand ? localized(r.brand.name) : null,
  category: r.category ? r.category.path.map((p) => localized(p)).join(' / ') : null,
  newCategory: r.newCategory,
  group: r.group,
  tariff: r.tariff,
  netWeightG: r.netWeightG,
  clearancePrice: r.clearancePrice,
  declarationPrice: r.declarationPrice,
  origin: r.origin,
  exportCategory: r.exportCategory ? `${r.exportCategory.code} ${localized(r.exportCategory.name)}` : null,
  essentials: r.essentials,
  taxCode: r.tax?.code ?? null,
  imageId: r.imageId,
});

export const itemFieldLabel = (path: string) => (path === 'imageId' ? t('items.image') : t(`items.${path}`));

/** The edit form's own fields (`fromItem`: ids where the dialog's list shows names), for the merge. */
export const ITEM_FORM_FIELDS = [
  'jan',
  'nameZh',
  'nameEn',
  'nameJa',
  'specs',
  'essentials',
  'partId',
  'brandId',
  'categoryId',
  'newCategory',
  'exportCategory',
  'tariff',
  'netWeightG',
  'clearancePrice',
  'declarationPrice',
  'origin',
  'taxCode',
  'imageId',
  'group',
] as const;

/** A form field's label (`partId` is labelled as the part). */
export const itemFormLabel = (path: string) => t(`items.${path.replace(/Id$/, '')}`);
