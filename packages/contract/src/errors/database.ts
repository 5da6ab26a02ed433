import type { Catalogue } from './catalogue.ts';

/**
 * What a user reads when the database refuses a write (the server's http/error-handler.ts
 * classifies the error): unique columns a user can collide on are named for the user
 * (`dbDuplicate_<column>`); others get the general message. Never the database's own text.
 */
export const databaseMessages = {
  dbDuplicate_order_no: { en: 'This order number already exists.', 'zh-CN': '该订单号已存在。' },
  dbDuplicate_batch_no: { en: 'This batch number already exists.', 'zh-CN': '该批次号已存在。' },
  dbDuplicate_waybill_no: { en: 'This waybill number is already in use.', 'zh-CN': '该运单号已被使用。' },
  dbDuplicate_name: { en: 'This name is already taken.', 'zh-CN': '该名称已被使用。' },
  dbDuplicate: { en: 'This value already exists.', 'zh-CN': '该值已存在。' },
  dbInvalidInput: {
    en: 'A value in the request is out of range or contains characters that cannot be stored.',
    'zh-CN': '请求中的某个值超出范围或含有无法保存的字符。',
  },
  dbConflict: {
    en: 'Someone changed the same data at the same moment. Please try again.',
    'zh-CN': '其他人同时修改了相同的数据，请重试。',
  },
  databaseUnavailable: {
    en: 'The database cannot be reached right now (it may be restarting); nothing was changed. Please try again in a moment.',
    'zh-CN': '数据库暂时无法访问（可能正在重启），未做任何更改。请稍后重试。',
  },
  databaseTimeout: {
    en: 'The database took too long to answer and the request was stopped; nothing was changed. Narrow the search or try again later.',
    'zh-CN': '数据库处理时间过长，请求已中止，未做任何更改。请缩小查询范围或稍后重试。',
  },
} as const satisfies Catalogue;
