import type { Catalogue } from './catalogue.ts';

export const orderLifeMessages = {
  lifeCancelled: { en: 'Order {orderNo} is cancelled.', 'zh-CN': '订单 {orderNo} 已取消。' },
  lifeIntercepted: {
    en: 'Order {orderNo} is intercepted: cancel the interception first.',
    'zh-CN': '订单 {orderNo} 已被拦截，请先取消拦截。',
  },
  lifeNotIntercepted: { en: 'Order {orderNo} is not intercepted.', 'zh-CN': '订单 {orderNo} 未被拦截。' },
  lifeNotError: { en: 'Order {orderNo} is not an error order.', 'zh-CN': '订单 {orderNo} 不是错误订单。' },
  lifeErrorOrder: {
    en: 'Order {orderNo} is an error order: fix it first.',
    'zh-CN': '订单 {orderNo} 是错误订单，请先修正。',
  },
  lifeNotYet_created: { en: 'Order {orderNo} cannot take this step.', 'zh-CN': '订单 {orderNo} 不能执行此操作。' },
  lifeNotYet_received: {
    en: 'Order {orderNo} has not been received at the warehouse yet.',
    'zh-CN': '订单 {orderNo} 尚未入库。',
  },
  lifeNotYet_shipped: { en: 'Order {orderNo} has not been shipped yet.', 'zh-CN': '订单 {orderNo} 尚未出库。' },
  lifeAlready_printed: { en: 'Order {orderNo} is already printed.', 'zh-CN': '订单 {orderNo} 已打印。' },
  lifeAlready_received: { en: 'Order {orderNo} is already received.', 'zh-CN': '订单 {orderNo} 已入库。' },
  lifeAlready_shipped: { en: 'Order {orderNo} is already shipped.', 'zh-CN': '订单 {orderNo} 已出库。' },
  lifeAlready_released: { en: 'Order {orderNo} is already released.', 'zh-CN': '订单 {orderNo} 已放行。' },
} as const satisfies Catalogue;
