import type { Catalogue } from './catalogue.ts';

/**
 * Messages of order review, in both API languages: the findings of each check
 * (`review_<check>_<code>`), the workbook's labels and the call failures. The abnormal
 * check's findings read with the abnormal rules' own messages (orders.messages.ts).
 */
export const orderReviewsMessages = {
  orderReviewNotFound: { en: 'Order review not found.', 'zh-CN': '订单审核不存在。' },
  orderReviewNotPending: {
    en: 'This review is already completed; only pending reviews can be changed or deleted.',
    'zh-CN': '该审核已完成，只有待审核的批次可以修改或删除。',
  },
  orderReviewNotReady: {
    en: 'This review is still being checked (or its check failed); it cannot be completed yet.',
    'zh-CN': '该审核仍在检查中（或检查失败），暂时无法完成。',
  },
  orderReviewFileGone: {
    en: 'The uploaded file could not be found any more. Please upload it again.',
    'zh-CN': '上传的文件已找不到，请重新上传。',
  },
  orderReviewFailed: {
    en: 'The review could not be checked. Please upload the file again.',
    'zh-CN': '订单审核检查失败，请重新上传文件。',
  },
  orderReviewNoOrders: {
    en: 'The sheet holds no orders to review.',
    'zh-CN': '表格中没有可审核的订单。',
  },
  review_catalogue_unknown: {
    en: 'JAN {jan} is not in your item catalogue.',
    'zh-CN': 'JAN {jan} 不在您的商品库中。',
  },
  review_catalogue_noJan: {
    en: 'The item has no JAN, so it cannot be matched to the catalogue.',
    'zh-CN': '该商品没有 JAN，无法与商品库匹配。',
  },
  review_catalogue_pending: {
    en: 'JAN {jan} is waiting for item review.',
    'zh-CN': 'JAN {jan} 的商品正在审核中。',
  },
  review_catalogue_failed: {
    en: 'JAN {jan} failed item review: {reason}',
    'zh-CN': 'JAN {jan} 的商品审核未通过：{reason}',
  },
  review_tax_yearlyLimit: {
    en: 'This order would take the recipient past the yearly cross-border limit of CNY {limit}: customs would refuse it.',
    'zh-CN': '该订单将使收件人超过每年 {limit} 元的跨境电商年度限额，海关将不予通过。',
  },
  review_price_mismatch: {
    en: 'Unit price {actual} CNY differs from the declared clearance price {declared} CNY.',
    'zh-CN': '单价 {actual} 元与商品库申报的清关价格 {declared} 元不一致。',
  },
  review_orderRules_minorId: {
    en: 'The recipient is a minor (born {birth}).',
    'zh-CN': '收件人为未成年人（出生于 {birth}）。',
  },
  review_orderRules_multiplePricesPerJan: {
    en: 'JAN {jan} has several prices in this order.',
    'zh-CN': '本订单内 JAN {jan} 有多个价格。',
  },
  reviewStatus_0: { en: 'Pending', 'zh-CN': '待审核' },
  reviewStatus_1: { en: 'Completed', 'zh-CN': '已完成' },
  reviewCatalogue_approved: { en: 'Approved', 'zh-CN': '已通过' },
  reviewCatalogue_pending: { en: 'Pending review', 'zh-CN': '审核中' },
  reviewCatalogue_failed: { en: 'Review failed', 'zh-CN': '审核未通过' },
  reviewCatalogue_unknown: { en: 'Not in catalogue', 'zh-CN': '未备案' },
} as const satisfies Catalogue;
