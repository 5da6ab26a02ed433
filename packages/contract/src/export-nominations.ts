import { z } from 'zod';
import { expectedVersion, recordVersion } from './versions.ts';
import { defineCall, nothing } from './call.ts';
import { corporateNumberProblem } from './checks.ts';
import { emailAddress } from './email.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { progressField } from './export-jobs.ts';
import { idOf, text } from './fields.ts';
import { addRuleMessages, ruleIssue } from './messages.ts';

/**
 * Export nominations (spec §2 "exports: list, create, update, updateReceiveEmail", §3 "Export
 * nomination", §7 "Export nomination (AES)"): the Japanese exporter of record a customer names
 * on its import orders. A customer keeps its own, an agent its customers', operators all. The
 * order import's nomination select (`exports`, reference.ts) lists the same rows. Every call
 * travels in the AES envelope.
 */

addRuleMessages({
  corporateNumber_digits: {
    en: 'A corporate number is digits only (13 digits, no letters, spaces or dashes).',
    'zh-CN': '法人番号只能是数字（13 位，不含字母、空格或横线）。',
  },
  corporateNumber_length: {
    en: 'A corporate number has exactly 13 digits.',
    'zh-CN': '法人番号必须是 13 位数字。',
  },
  corporateNumber_checkDigit: {
    en: 'This corporate number is not valid: its first digit (the check digit) does not match the other 12.',
    'zh-CN': '法人番号无效：第一位校验码与后 12 位不符。',
  },
});

/** 法人番号: 13 digits, check digit first (checks.ts, shared with the console's form). */
export const corporateNumber = text({ max: 32 }).check((ctx) => {
  const problem = corporateNumberProblem(ctx.value);
  if (problem) ctx.issues.push(ruleIssue(ctx.value, `corporateNumber_${problem}`));
});

/** An address that receives export documents: one address (email.ts, the contract's one rule). */
export const receiveEmail = emailAddress();
/** On a nomination's own form the address may be left empty (set later on its page). */
export const optionalReceiveEmail = emailAddress({ optional: true });
/** The console's form checks with the same pattern. */
export { EMAIL_PATTERN } from './email.ts';

export const exportNominationRow = z.object({
  id: z.number().int(),
  /** What the edit form sends back as `version` (issue 28 #3). */
  version: recordVersion,
  customerId: z.number().int(),
  customerCode: z.string(),
  nameJa: z.string(),
  nameEn: z.string(),
  corporateNumber: z.string(),
  addressEn: z.string(),
  tel: z.string(),
  idMark: z.string(),
  receiveEmail: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime.nullable(),
});
export type ExportNominationRow = z.infer<typeof exportNominationRow>;

export const exportNominationSort = z.enum(['createdAt', 'nameJa', 'nameEn', 'corporateNumber']);
const filters = {
  /** Part of the Japanese or English name. */
  name: text({ min: 1, max: 100 }).optional(),
  /** The corporate number, whole or its start. */
  corporateNumber: text({ min: 1, max: 13 }).optional(),
  customerId: idOf.optional(),
};
export const exportNominationListRequest = paging
  .extend({ ...filters, sort: exportNominationSort.default('createdAt') })
  .strict();
export type ExportNominationListRequest = z.output<typeof exportNominationListRequest>;

export const exportNominationList = defineCall({
  path: 'export/list',
  summary: "The caller's export nominations: filters (name, corporate number, customer), sort, paging.",
  aes: true,
  permission: 'exports.list',
  request: exportNominationListRequest,
  response: paged(exportNominationRow),
});

const fields = {
  nameJa: text({ min: 1, max: 200 }),
  nameEn: text({ min: 1, max: 200 }),
  corporateNumber,
  addressEn: text({ min: 1, max: 500 }),
  tel: text({ min: 1, max: 32 }),
  idMark: text({ max: 64 }).default(''),
  receiveEmail: optionalReceiveEmail.default(''),
};
export type ExportNominationFields = z.input<z.ZodObject<typeof fields>>;

export const createExportNomination = defineCall({
  path: 'export/create',
  summary: 'Create an export nomination (agents and operators name the customer).',
  aes: true,
  permission: 'exports.create',
  request: z.object({ ...fields, customerId: idOf.optional() }).strict(),
  response: exportNominationRow,
});

export const updateExportNomination = defineCall({
  path: 'export/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Change an export nomination (its customer stays).',
  aes: true,
  permission: 'exports.update',
  /** `version`: the one the form was loaded from; a stale one is a 409 `recordChanged` with the nomination now. */
  request: z.object({ ...fields, id: idOf, version: expectedVersion }).strict(),
  response: exportNominationRow,
});

/** One nomination, for the edit pages (not a spec call: the original read it from the list row). */
export const exportNomination = defineCall({
  path: 'export/info',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One export nomination.',
  aes: true,
  permission: 'exports.list',
  request: z.object({ id: idOf }).strict(),
  response: exportNominationRow,
});

export const deleteExportNomination = defineCall({
  path: 'export/delete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Delete an export nomination; 409 while an order not yet shipped (or a batch not yet committed) uses it.',
  aes: true,
  permission: 'exports.list',
  request: z.object({ id: idOf }).strict(),
  response: nothing,
});

/** What a refused delete answers in `data` beside its message. */
export const nominationInUse = z.object({
  orders: z.number().int(),
  /** Up to ten of the orders' numbers. */
  orderNos: z.array(z.string()),
  batches: z.number().int(),
});
export type NominationInUse = z.infer<typeof nominationInUse>;

export const exportExportNominations = defineCall({
  path: 'export/export',
  summary: "The caller's export nominations as an xlsx, the list's filters and sort applied.",
  aes: true,
  permission: 'exports.list',
  kind: 'blob',
  timeout: 0,
  request: exportNominationListRequest.omit({ offset: true, limit: true }).extend(progressField).strict(),
  response: nothing,
});

export const updateReceiveEmail = defineCall({
  path: 'user/updateReceiveEmail',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Change the address that receives the export documents of one nomination.',
  aes: true,
  permission: 'exports.updateReceiveEmail',
  request: z.object({ id: idOf, receiveEmail }).strict(),
  response: exportNominationRow,
});
