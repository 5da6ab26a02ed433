import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { recipientInput } from './orders.ts';

/**
 * The recipient address book (spec §7 "Recipient: recipient/list, recipient/create"; update and
 * delete for its page). A customer keeps its own recipients, an agent its customers', operators
 * all. A recipient is checked like an order's recipient (divisions, phone, the ID number's check
 * digit) and the single order page fills its recipient from one. Lists show the ID number and
 * phone masked; `recipient/info` gives them whole, for the order form.
 */
export const recipientRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  name: z.string(),
  /** Masked in lists (first 4 and last 4 kept). */
  idCard: z.string(),
  /** Masked in lists (first 3 and last 4 kept). */
  phone: z.string(),
  email: z.string().nullable(),
  province: z.string(),
  city: z.string(),
  district: z.string(),
  street: z.string().nullable(),
  address: z.string(),
  postcode: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type RecipientRow = z.infer<typeof recipientRow>;

export const recipientListRequest = paging
  .extend({
    /** Part of the name, the phone or the address. */
    keyword: text({ min: 1, max: 64 }).optional(),
    customerId: idOf.optional(),
    sort: z.enum(['createdAt', 'name']).default('createdAt'),
  })
  .strict();
export type RecipientListRequest = z.output<typeof recipientListRequest>;

export const recipientList = defineCall({
  path: 'recipient/list',
  summary: "The caller's recipients (ID number and phone masked): keyword, customer, sort, paging.",
  permission: 'recipient.list',
  request: recipientListRequest,
  response: paged(recipientRow),
});

export const recipientInfo = defineCall({
  path: 'recipient/info',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One recipient, unmasked (the order form fills its recipient from it).',
  permission: 'recipient.list',
  request: z.object({ id: idOf }).strict(),
  response: recipientRow,
});

export const createRecipient = defineCall({
  path: 'recipient/create',
  summary: 'Add a recipient (checked like an order recipient); agents and operators name the customer.',
  permission: 'recipient.list',
  request: recipientInput.extend({ customerId: idOf.optional() }).strict(),
  response: recipientRow,
});

export const updateRecipient = defineCall({
  path: 'recipient/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Change a recipient (its customer stays).',
  permission: 'recipient.list',
  request: recipientInput.extend({ id: idOf }).strict(),
  response: recipientRow,
});

export const deleteRecipient = defineCall({
  path: 'recipient/delete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Remove a recipient from the address book (orders made with it keep their copy).',
  permission: 'recipient.list',
  request: z.object({ id: idOf }).strict(),
  response: nothing,
});
