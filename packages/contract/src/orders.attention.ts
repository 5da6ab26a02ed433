import { z } from 'zod';
import { defineCall, empty } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { i18nText } from './i18n.ts';
import { confirmations, optText, recipientInput, required } from './orders.one.ts';

// ---------------------------------------------------------------------------
// Orders that need attention
// ---------------------------------------------------------------------------

export const errorUpdate = defineCall({
  path: 'order/error/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Fix an error order (recipient data); a valid fix clears the error.',
  permission: 'order.error',
  request: z.object({ id: idOf, recipient: recipientInput, confirm: confirmations }),
  response: z.object({ id: z.number().int(), cleared: z.boolean() }),
});
export const errorUpdate2 = defineCall({
  path: 'order/error/update2',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Re-check several error orders: an error found downstream stands until a field it names has changed ' +
    '(each change clears it when it is saved). With `clear`, an operator clears the errors as they are (recorded ' +
    'with the note, which `clear` requires). Answers 409 when any order is locked (received, shipped…), changing nothing.',
  permission: 'order.error',
  request: z.object({ ids: z.array(idOf).min(1).max(500), clear: z.boolean().default(false), note: optText(200) }),
  response: z.object({
    cleared: z.array(z.number().int()),
    failed: z.array(z.object({ id: z.number().int(), reason: z.string() })),
  }),
});
export const errorBoxcUpdate = defineCall({
  path: 'order/error/boxcUpdate',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Fix a box-C (boxed channel) error order: box and split waybill numbers.',
  permission: 'order.error',
  request: z.object({ id: idOf, boxNo: required(64), splitWaybillNo: optText(64) }),
  response: z.object({ id: z.number().int(), cleared: z.boolean() }),
});

export const abnormalRule = z.object({
  code: z.string(),
  name: i18nText,
  description: i18nText,
  enabled: z.boolean(),
});
export const abnormalRules = defineCall({
  path: 'validateAbnormalRule/selectAllRule',
  summary: 'The abnormal-order rules.',
  permission: 'order.abnormal',
  request: empty,
  response: z.array(abnormalRule),
});
/** Operators switch one abnormal rule on or off; a rule switched off is not applied on create, update or import. */
export const abnormalRuleSwitch = defineCall({
  path: 'validateAbnormalRule/updateRule',
  summary: 'Operators switch one abnormal rule on or off (applied from the next create, update or import).',
  permission: 'order.abnormalRules',
  request: z.object({ code: text({ min: 1, max: 64 }), enabled: z.boolean() }).strict(),
  response: abnormalRule,
});
export const abnormalUpdate = defineCall({
  path: 'order/abnormal/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Operators resolve (after correction) or release abnormal orders.',
  permission: 'order.abnormal',
  request: z.object({ ids: z.array(idOf).min(1).max(500), action: z.enum(['resolve', 'release']), note: optText(200) }),
  response: z.object({ updated: z.number().int() }),
});
