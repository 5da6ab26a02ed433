import type { Catalogue } from './catalogue.ts';

/** Messages of API keys and the v1 API (issue 39), in both API languages. */
export const apiKeysMessages = {
  apiKeyInvalid: {
    en: 'This API key is not valid: unknown, revoked or expired. Send `Authorization: Bearer ck_live_…`.',
    'zh-CN': '该 API 密钥无效：不存在、已撤销或已过期。请发送 `Authorization: Bearer ck_live_…`。',
  },
  apiKeyNotForConsole: {
    en: 'An API key opens the v1 API only, not the console.',
    'zh-CN': 'API 密钥只能用于 v1 接口，不能用于控制台。',
  },
  sessionNotForApi: {
    en: 'The v1 API takes an API key, not a console session.',
    'zh-CN': 'v1 接口需要 API 密钥，不接受控制台会话。',
  },
  scopeMissing: {
    en: 'This API key lacks the scope {scope}.',
    'zh-CN': '该 API 密钥没有 {scope} 权限范围。',
  },
  requestInProgress: {
    en: 'A request with this Idempotency-Key is still running. Retry shortly to get its answer.',
    'zh-CN': '使用该 Idempotency-Key 的请求仍在处理中，请稍后重试以获取其结果。',
  },
  idempotencyKeyReused: {
    en: 'This Idempotency-Key was already used with another request. Use a new key for a new request.',
    'zh-CN': '该 Idempotency-Key 已用于另一个请求。新的请求请使用新的键。',
  },
  idempotencyKeyInvalid: {
    en: 'An Idempotency-Key is 1 to 255 visible ASCII characters (a UUID fits).',
    'zh-CN': 'Idempotency-Key 须为 1 至 255 个可见 ASCII 字符（可使用 UUID）。',
  },
  apiKeyExpiryPast: {
    en: 'The expiry must be in the future.',
    'zh-CN': '过期时间必须晚于当前时间。',
  },
  apiKeyNotForStaff: {
    en: 'API keys belong to a customer or an agent; staff accounts cannot make one.',
    'zh-CN': 'API 密钥属于客户或代理，员工账号不能创建。',
  },
  webhookAdminReadOnly: {
    en: 'A webhook endpoint belongs to its customer: the admin may only disable it or resend its deliveries.',
    'zh-CN': 'Webhook 端点属于其客户：管理员只能停用端点或重发其投递。',
  },
} as const satisfies Catalogue;
