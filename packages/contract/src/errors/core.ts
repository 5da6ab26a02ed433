import { textProblemMessages } from '../fields.ts';
import { passwordMessages } from '../password.ts';
import type { Catalogue } from './catalogue.ts';

/**
 * The server's own messages (envelope, auth, uploads, limits), in both API languages, and the
 * contract's text and password rules the server also raises.
 */
export const coreMessages = {
  ok: { en: 'ok', 'zh-CN': '成功' },
  noData: { en: 'no data', 'zh-CN': 'no data' },
  badRequestGeneric: { en: 'Bad request.', 'zh-CN': '请求无效。' },
  // A job the queue gave up on (lib/jobs.shared.ts INTERRUPTED_RERUNS): shown on the record its user watches.
  jobStoppedTooOften: {
    en: 'This job was stopped before it finished too many times (the server running it restarted each time), so it was not run again. Please start it again; if it fails the same way, split it into smaller parts.',
    'zh-CN':
      '该任务多次在完成前被中断（运行它的服务器每次都重启了），因此不再重试。请重新发起；如仍以同样方式失败，请拆分成较小的部分。',
  },
  badJson: { en: 'The request body is not valid JSON.', 'zh-CN': '请求体不是有效的 JSON。' },
  // A path the router cannot decode (a raw `%E4`, a lone `%`): http/error-handler.ts `badUrlAnswer`.
  badUrl: {
    en: 'The address is not valid: characters outside A–Z, 0–9 must be percent-encoded as UTF-8 (for example 中 as %E4%B8%AD).',
    'zh-CN': '请求地址无效：字母和数字以外的字符须按 UTF-8 进行百分号编码（例如「中」写作 %E4%B8%AD）。',
  },
  unsupportedMediaType: { en: 'Unsupported content type.', 'zh-CN': '不支持的内容类型。' },
  payloadTooLarge: { en: 'The request is too large.', 'zh-CN': '请求内容过大。' },
  validationFailed: { en: 'Form verification failed, please check', 'zh-CN': '表单校验失败，请检查' },
  notFound: { en: 'Not found.', 'zh-CN': '未找到。' },
  recordChanged: {
    en: 'Someone else changed this record after you opened it; nothing was saved.',
    'zh-CN': '您打开此记录后，其他人已修改了它；本次未保存。',
  },
  unauthorized: { en: 'Please log in.', 'zh-CN': '请登录。' },
  tokenExpired: { en: 'Your login has expired.', 'zh-CN': '登录已过期。' },
  forbidden: { en: 'You do not have permission for this.', 'zh-CN': '您没有此操作的权限。' },
  internal: { en: 'Server error', 'zh-CN': '服务器错误' },
  storageFull: {
    en: 'The server has run out of storage space; nothing was saved. Please try again later or tell the administrator.',
    'zh-CN': '服务器存储空间不足，未保存任何内容。请稍后重试或联系管理员。',
  },
  badLogin: { en: 'Wrong user name or password.', 'zh-CN': '用户名或密码错误。' },
  loginThrottled: {
    en: 'Too many failed logins. Try again in {minutes} minutes.',
    'zh-CN': '登录失败次数过多，请 {minutes} 分钟后再试。',
  },
  sessionEndedPassword: {
    en: 'Your password was changed in another session. Please log in again.',
    'zh-CN': '您的密码已在其他会话中修改，请重新登录。',
  },
  sessionEndedDisabled: {
    en: 'Your account has been disabled. Please contact your administrator.',
    'zh-CN': '您的账号已被禁用，请联系管理员。',
  },
  sessionEndedOperator: {
    en: 'Your session was ended by an operator. Please log in again.',
    'zh-CN': '您的会话已被管理员结束，请重新登录。',
  },
  refreshFailed: {
    en: 'Your login can no longer be renewed. Please log in again.',
    'zh-CN': '登录无法续期，请重新登录。',
  },
  mustChangePassword: {
    en: 'Change your one-time password before anything else.',
    'zh-CN': '请先修改一次性密码。',
  },
  wrongOldPassword: { en: 'The old password is wrong.', 'zh-CN': '原密码错误。' },
  samePassword: { en: 'The new password must differ from the old one.', 'zh-CN': '新密码不能与原密码相同。' },
  aesRequired: { en: 'This call must be encrypted (AES).', 'zh-CN': '此接口须加密调用（AES）。' },
  aesInvalid: { en: 'The encrypted body cannot be decrypted.', 'zh-CN': '加密内容无法解密。' },
  userNotFound: { en: 'No such user.', 'zh-CN': '用户不存在。' },
  noticeNotRead: { en: 'Read the notice before agreeing to it.', 'zh-CN': '请先阅读公告再同意。' },
  noticesPending: {
    en: 'Please read and agree to the new notices before ordering.',
    'zh-CN': '下单前请先阅读并同意新公告。',
  },
  customerRequired: { en: 'Customer cannot be empty', 'zh-CN': '客户不能为空' },
  customerOutOfScope: { en: 'You cannot act for this customer.', 'zh-CN': '您不能代此客户操作。' },
  onlyOneFile: { en: 'Upload one file at a time.', 'zh-CN': '一次只能上传一个文件。' },
  fileRequired: { en: 'Choose a file to upload.', 'zh-CN': '请选择要上传的文件。' },
  fileWithoutName: {
    en: 'The uploaded file has no file name. Choose the file again and retry.',
    'zh-CN': '上传的文件没有文件名，请重新选择文件后重试。',
  },
  badMultipart: {
    en: 'The upload is incomplete or malformed. Choose the file again and retry.',
    'zh-CN': '上传内容不完整或格式错误，请重新选择文件后重试。',
  },
  tooManyRequests: { en: 'Too many requests. Please slow down.', 'zh-CN': '请求过于频繁，请稍后再试。' },
  rendersQueuedTooMany: {
    en: 'You already have {max} downloads or exports being prepared; nothing more was started. Try again when one of them is done.',
    'zh-CN': '您已有 {max} 个下载或导出正在生成，本次未开始。请等其中一个完成后再试。',
  },
  // The contract's text rule, shared by request fields and uploaded cells.
  ...textProblemMessages,
  ...passwordMessages,
} as const satisfies Catalogue;
