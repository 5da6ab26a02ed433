import type { admin } from '@console/contract';
import { getLocale, registerMessages, t } from '@/lib';
import { hasMessage } from '@/lib/i18n.ts';

/**
 * The audit log in words (issue 36 #23): a row's action as a sentence and its detail as labelled
 * values, in the user's language, instead of `user.endSessions` and `{"ended":5}`. Every action
 * the server can write is a key of these records (the contract's `auditActions`), so a new action
 * without words fails the typecheck; an older row's unknown action is shown as written.
 */
const actionZh: Record<admin.AuditAction, string> = {
  'abnormalRule.update': '修改异常规则',
  'apiKey.create': '创建 API 密钥',
  'apiKey.revoke': '撤销 API 密钥',
  'bill.adjust': '调整账单',
  'bill.issue': '出账',
  'bill.markPaid': '标记账单已付款',
  'customer.create': '新增客户',
  'customer.update': '修改客户',
  'idCard.image': '查看身份证图片',
  'notice.publish': '发布公告',
  'order.delete': '删除订单',
  'order.reweigh': '订单重新称重',
  'permit.read': '查看出口许可证',
  'pickupCapacity.update': '修改揽收能力',
  'rateCard.save': '保存价格表',
  'role.update': '修改角色权限',
  'segment.create': '新增客户分组',
  'segment.retire': '停用客户分组',
  'staff.write': '员工修改客户数据',
  'user.create': '新增用户',
  'user.disable': '禁用用户',
  'user.enable': '启用用户',
  'user.endSession': '结束一个会话',
  'user.endSessions': '结束用户的全部会话',
  'user.resetPassword': '重置密码',
  'webhookDelivery.resend': '重发 Webhook 投递',
  'webhookEndpoint.create': '新增 Webhook 端点',
  'webhookEndpoint.delete': '删除 Webhook 端点',
  'webhookEndpoint.rotateSecret': '更换 Webhook 签名密钥',
  'webhookEndpoint.update': '修改 Webhook 端点',
};
const actionEn: Record<admin.AuditAction, string> = {
  'abnormalRule.update': 'Changed an abnormal-order rule',
  'apiKey.create': 'Created an API key',
  'apiKey.revoke': 'Revoked an API key',
  'bill.adjust': 'Adjusted a bill',
  'bill.issue': 'Issued a bill',
  'bill.markPaid': 'Marked a bill paid',
  'customer.create': 'Created a customer',
  'customer.update': 'Changed a customer',
  'idCard.image': 'Viewed an ID-card image',
  'notice.publish': 'Published a notice',
  'order.delete': 'Deleted an order',
  'order.reweigh': 'Re-weighed an order',
  'permit.read': 'Read an export permit',
  'pickupCapacity.update': 'Changed the pickup capacity',
  'rateCard.save': 'Saved a rate card',
  'role.update': 'Changed a role’s permissions',
  'segment.create': 'Created a customer segment',
  'segment.retire': 'Retired a customer segment',
  'staff.write': 'Staff changed a customer’s data',
  'user.create': 'Created a user',
  'user.disable': 'Disabled a user',
  'user.enable': 'Enabled a user',
  'user.endSession': 'Ended a session',
  'user.endSessions': 'Ended all of a user’s sessions',
  'user.resetPassword': 'Reset a password',
  'webhookDelivery.resend': 'Resent a webhook delivery',
  'webhookEndpoint.create': 'Created a webhook endpoint',
  'webhookEndpoint.delete': 'Deleted a webhook endpoint',
  'webhookEndpoint.rotateSecret': 'Rotated a webhook signing secret',
  'webhookEndpoint.update': 'Changed a webhook endpoint',
};
/** The detail's field names the server writes; others are shown as written. */
const fields = {
  'zh-chs': {
    ended: '结束的会话数',
    session: '会话',
    enabled: '启用',
    role: '角色',
    customerId: '客户',
    added: '新增',
    removed: '移除',
    title: '标题',
    mustAgree: '须同意',
    call: '调用',
    before: '修改前',
    after: '修改后',
    sent: '提交内容',
    name: '名称',
    scopes: '权限范围',
    url: '地址',
    events: '事件',
    expiresAt: '过期时间',
    customerIds: '限定客户',
    yes: '是',
    no: '否',
  },
  en: {
    ended: 'Sessions ended',
    session: 'Session',
    enabled: 'Enabled',
    role: 'Role',
    customerId: 'Customer',
    added: 'Added',
    removed: 'Removed',
    title: 'Title',
    mustAgree: 'Must agree',
    call: 'Call',
    before: 'Before',
    after: 'After',
    sent: 'Sent',
    name: 'Name',
    scopes: 'Scopes',
    url: 'URL',
    events: 'Events',
    expiresAt: 'Expires',
    customerIds: 'Limited to customers',
    yes: 'yes',
    no: 'no',
  },
};
registerMessages('audit', {
  'zh-chs': { action: actionZh, field: fields['zh-chs'] },
  en: { action: actionEn, field: fields.en },
});

/** The action as a sentence in the current language; an action this release does not know, as written. */
export function auditActionText(action: string): string {
  return hasMessage(getLocale(), `audit.action.${action}`) || hasMessage('en', `audit.action.${action}`)
    ? t(`audit.action.${action}`)
    : action;
}

const valueText = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return t(v ? 'audit.field.yes' : 'audit.field.no');
  if (Array.isArray(v)) return v.length ? v.map(valueText).join(', ') : '—';
  if (typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}=${typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x)}`)
      .join(', ');
  return String(v);
};

/**
 * A row's detail as "label: value" parts in the current language: an object's fields by their
 * names, a plain text as it is.
 */
export function auditDetailText(detail: string): string {
  if (!detail.startsWith('{')) return detail;
  let parsed: unknown;
  try {
    parsed = JSON.parse(detail);
  } catch {
    return detail;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return detail;
  return Object.entries(parsed as Record<string, unknown>)
    .map(([k, v]) => {
      const key = `audit.field.${k}`;
      const label = hasMessage(getLocale(), key) || hasMessage('en', key) ? t(key) : k;
      return `${label}: ${valueText(v)}`;
    })
    .join(getLocale() === 'en' ? '; ' : '；');
}

/** The filter's choices: every action by its sentence. */
export const auditActionOptions = (actions: readonly admin.AuditAction[]) =>
  actions.map((a) => ({ value: a, label: auditActionText(a) }));
