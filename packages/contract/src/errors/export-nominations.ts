import type { Catalogue } from './catalogue.ts';

/**
 * Messages of export nominations in both API languages. A refused delete says what holds the
 * nomination: orders not yet shipped (how many, and the first numbers) and/or import batches
 * not yet committed (their orders will name it).
 */
export const exportNominationsMessages = {
  exportNominationNotFound: { en: 'Export nomination not found.', 'zh-CN': '出口抬头不存在。' },
  exportNominationInUse: {
    en: 'This export nomination cannot be deleted: {count} order(s) not yet shipped use it ({orderNos}). Delete it once they are shipped or cancelled.',
    'zh-CN': '该出口抬头不能删除：有 {count} 个未发货的订单正在使用（{orderNos}）。请在这些订单发货或取消后再删除。',
  },
  exportNominationInUseBatches: {
    en: 'This export nomination cannot be deleted: {batches} import batch(es) not yet committed use it. Delete it once they are committed or cancelled.',
    'zh-CN': '该出口抬头不能删除：有 {batches} 个尚未提交的导入批次正在使用。请在这些批次提交或取消后再删除。',
  },
  exportNominationInUseBoth: {
    en: 'This export nomination cannot be deleted: {count} order(s) not yet shipped ({orderNos}) and {batches} import batch(es) not yet committed use it.',
    'zh-CN': '该出口抬头不能删除：有 {count} 个未发货的订单（{orderNos}）和 {batches} 个尚未提交的导入批次正在使用。',
  },
} as const satisfies Catalogue;
