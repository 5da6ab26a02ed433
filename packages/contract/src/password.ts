import type { ApiLanguage } from './i18n.ts';
import { addRuleMessages } from './messages.ts';

/**
 * The password policy, one for the server (updatePassWord, create-admin) and the console
 * (shown before typing, checked as the user types). docs/decisions.md says why these rules.
 *
 * - 8 to 128 characters (long enough to resist guessing, short enough to hash cheaply);
 * - at least three of four kinds: lower-case letters, capitals, digits, other characters;
 * - not containing the user name (any case; names of 3 characters or more);
 * - not a common password: the ~18,000 entries of 8 or more characters of zxcvbn-ts's
 *   list of common passwords, also with digits and symbols stripped from the end
 *   ("Password123!" is "password"). The list is large, so it lives in
 *   `@console/contract/common-passwords` and the console loads it only in the form.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** A user name shorter than this is not searched for inside a password. */
const NAME_MIN = 3;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'kinds' | 'containsName' | 'common';

/** The rules as the form lists them before the user types, in order. */
export const passwordRuleList: { rule: PasswordProblem; text: Record<ApiLanguage, string> }[] = [
  {
    rule: 'tooShort',
    text: { en: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, 'zh-CN': `${PASSWORD_MIN} 至 ${PASSWORD_MAX} 个字符` },
  },
  {
    rule: 'kinds',
    text: {
      en: 'At least three of: lower-case letters, capitals, digits, symbols',
      'zh-CN': '至少包含小写字母、大写字母、数字、符号中的三种',
    },
  },
  { rule: 'containsName', text: { en: 'Does not contain your user name', 'zh-CN': '不包含用户名' } },
  {
    rule: 'common',
    text: { en: 'Not a commonly used password', 'zh-CN': '不是常用密码' },
  },
];

/** Why a password is refused, as a 422 message. */
export const passwordMessages: Record<`password_${PasswordProblem}`, Record<ApiLanguage, string>> = {
  password_tooShort: {
    en: `The password needs at least ${PASSWORD_MIN} characters.`,
    'zh-CN': `密码至少需要 ${PASSWORD_MIN} 个字符。`,
  },
  password_tooLong: {
    en: `The password can have at most ${PASSWORD_MAX} characters.`,
    'zh-CN': `密码最多 ${PASSWORD_MAX} 个字符。`,
  },
  password_kinds: {
    en: 'Use at least three of: lower-case letters, capitals, digits, symbols.',
    'zh-CN': '请至少使用小写字母、大写字母、数字、符号中的三种。',
  },
  password_containsName: {
    en: 'The password must not contain your user name.',
    'zh-CN': '密码不能包含用户名。',
  },
  password_common: {
    en: 'This is a commonly used password that others can guess. Choose another.',
    'zh-CN': '这是容易被猜到的常用密码，请换一个。',
  },
};
addRuleMessages(passwordMessages);

/** How many of the four kinds of characters the password uses. */
export function passwordKinds(password: string): number {
  let n = 0;
  if (/\p{Ll}/u.test(password)) n++;
  if (/\p{Lu}/u.test(password)) n++;
  if (/\p{Nd}/u.test(password)) n++;
  if (/[^\p{Ll}\p{Lu}\p{Nd}]/u.test(password)) n++;
  return n;
}

/**
 * Every rule the password breaks, in the order of `passwordRuleList`. `isCommon` is the
 * common-password check (`@console/contract/common-passwords`); without it that rule is not
 * checked (the console while the list loads).
 */
export function passwordProblems(
  password: string,
  opts: { userName?: string; isCommon?: (password: string) => boolean } = {},
): PasswordProblem[] {
  const out: PasswordProblem[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN) out.push('tooShort');
  if (length > PASSWORD_MAX) out.push('tooLong');
  if (passwordKinds(password) < 3) out.push('kinds');
  const name = opts.userName?.trim().toLowerCase();
  if (name && name.length >= NAME_MIN && password.toLowerCase().includes(name)) out.push('containsName');
  if (opts.isCommon?.(password)) out.push('common');
  return out;
}
