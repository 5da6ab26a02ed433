import type { Catalogue } from './catalogue.ts';

/** Messages of JD authorizations in both API languages. */
export const jdAuthorizeMessages = {
  jdAuthorizeNotFound: { en: 'JD authorization not found.', 'zh-CN': '京东授权不存在。' },
  jdPublicUrlMissing: {
    en: "JD authorization is not set up: the server does not know its public address. Ask the administrator to set PUBLIC_URL (the address users open, such as https://console.example.com) in the server's configuration.",
    'zh-CN':
      '京东授权尚未配置：服务器不知道自己的公网地址。请联系管理员在服务器配置中设置 PUBLIC_URL（用户访问的地址，如 https://console.example.com）。',
  },
  jdStateInvalid: {
    en: 'This authorization link is not valid for you, was already used or has expired. Start the authorization again.',
    'zh-CN': '该授权链接不属于您、已被使用或已过期，请重新发起授权。',
  },
  jdNotAuthorized: {
    en: 'This JD app is not authorized yet (or its refresh token is gone): authorize it first.',
    'zh-CN': '该京东应用尚未授权（或刷新令牌已失效），请先授权。',
  },
  jdRefused: { en: 'JD refused: {msg} (code {code}).', 'zh-CN': '京东拒绝：{msg}（代码 {code}）。' },
  jdUnreachable: {
    en: 'JD could not be reached or answered unexpectedly ({msg}). Try again later.',
    'zh-CN': '无法连接京东或京东返回异常（{msg}），请稍后重试。',
  },
} as const satisfies Catalogue;
