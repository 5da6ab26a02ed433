import { z } from 'zod';
import { defineCall, empty } from './call.ts';
import { text } from './fields.ts';
import { i18nText } from './i18n.ts';
import { itemTax, named } from './items.records.ts';

// ---------------------------------------------------------------------------
// Reference data for the item form
// ---------------------------------------------------------------------------

export const parts = defineCall({
  path: 'item/parts',
  summary: 'Parts (what part of a product the item is) for the item form.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(named),
});

export const brands = defineCall({
  path: 'item/brands',
  summary: 'Brands for the item form.',
  aes: true,
  permission: 'item.list',
  request: z.object({ keyword: text({ max: 64 }).optional() }).strict(),
  response: z.array(named),
});

export interface CategoryNode {
  id: number;
  name: { zh: string; en: string };
  children: CategoryNode[];
}
export const categoryNode: z.ZodType<CategoryNode> = z.object({
  id: z.number().int(),
  name: i18nText,
  get children() {
    return z.array(categoryNode);
  },
});

export const categories = defineCall({
  path: 'item/categories',
  summary: 'Item categories as a tree.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(categoryNode),
});

export const exportCategories = defineCall({
  path: 'item/exportCategories',
  summary: 'The Japanese export categories a declaration uses.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(z.object({ code: z.string(), name: i18nText })),
});

export const taxes = defineCall({
  path: 'item/taxes',
  summary: 'Tax codes with name, unit, amount and rate.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(itemTax),
});
