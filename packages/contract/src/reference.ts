import { z } from 'zod';
import { defineCall, empty } from './call.ts';
import { idOf, text } from './fields.ts';
import { pattern } from './messages.ts';
import { i18nText } from './i18n.ts';

export const channelCode = z.enum(['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD']);
export type ChannelCode = z.infer<typeof channelCode>;
export const currencyCode = z.enum(['JPY', 'CNY', 'USD', 'SGD', 'AUD', 'GBP', 'PHP', 'THB']);
export type CurrencyCode = z.infer<typeof currencyCode>;

const coded = z.object({ code: z.string(), name: i18nText });

export const channel = coded.extend({
  code: channelCode,
  currency: currencyCode,
  origin: z.string(),
  templateKind: z.string(),
  hasBoxes: z.boolean(),
});

export const channels = defineCall({
  path: 'channels',
  summary: 'The channels (Japan parcel, USA parcel, EMS, SG, AU, UK, PH, TH, US domestic).',
  request: empty,
  response: z.array(channel),
});
export const customsClearanceCompanies = defineCall({
  path: 'customsClearanceCompanies',
  summary: 'Customs clearance companies.',
  request: empty,
  response: z.array(coded),
});
export const exportNominationOption = z.object({
  id: z.number().int(),
  nameJa: z.string(),
  nameEn: z.string(),
  corporateNumber: z.string(),
  customerId: z.number().int(),
});
export const exportsOptions = defineCall({
  path: 'exports',
  summary: "The caller's export nominations (for selects).",
  request: z.object({ customerId: idOf.optional() }),
  response: z.array(exportNominationOption),
});
export const customerOption = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export const customers = defineCall({
  path: 'customers',
  summary: 'The customers the caller may act for (a customer: itself; an agent: its customers; operators: all).',
  request: empty,
  response: z.array(customerOption),
});
export const orderTypes = defineCall({
  path: 'orderTypes',
  summary: 'Order types.',
  request: empty,
  response: z.array(coded),
});
export const noTypes = defineCall({
  path: 'noTypes',
  summary: 'Kinds of order numbers one can search by.',
  request: empty,
  response: z.array(coded),
});
export const currencies = defineCall({
  path: 'currencies',
  summary: 'Currencies with their minor-unit digits.',
  request: empty,
  response: z.array(coded.extend({ code: currencyCode, decimals: z.number().int() })),
});

const division = z.object({ code: z.string(), name: z.string() });
const divisionCode = text({ max: 6 }).regex(pattern(/^\d{6}$/, 'divisionCode'));
export const provinces = defineCall({
  path: 'cn/address/provinces',
  summary: 'Mainland China provinces (with HK, MO, TW).',
  request: empty,
  response: z.array(division),
});
export const cities = defineCall({
  path: 'cn/address/cities',
  summary: 'Cities of a province.',
  request: z.object({ province: divisionCode }),
  response: z.array(division),
});
export const areas = defineCall({
  path: 'cn/address/areas',
  summary: 'Districts of a city.',
  request: z.object({ city: divisionCode }),
  response: z.array(division),
});
/**
 * Every division at once, for a searchable cascader (the console filters across all districts
 * as the user types, which the one-level calls above cannot give without ~400 calls).
 */
export const divisionTree = defineCall({
  path: 'cn/address/tree',
  summary: 'Provinces → cities → districts in one answer (same data as the calls above).',
  request: empty,
  response: z.array(division.extend({ children: z.array(division.extend({ children: z.array(division) })) })),
});
