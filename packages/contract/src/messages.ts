import type { z } from 'zod';
import { TEXT_RULE_PARAM, textProblemMessages, type TextProblem } from './fields.ts';
import type { ApiLanguage } from './i18n.ts';

/**
 * What a user reads when a request field is refused: every check of the contract says
 * it in words written for users, in both languages, never in zod's own text ("数值过小：
 * 期望 string >=8 字符", "Invalid input: expected string"). The server validates with
 * `contractErrorMap(lang)`; `messages.test.ts` walks every call and fails on a message
 * that is not one of these.
 *
 * A check that zod cannot describe (a pattern, a refinement) names its rule: `.regex()`
 * takes a pattern registered with `pattern(re, rule)`, a `.check()` pushes a custom issue
 * with `params: { rule }` (see `ruleIssue`). Both are looked up in `ruleMessages`.
 */

type Text = Record<ApiLanguage, string>;

/** Messages of the rules the contract names; `{name}` takes a parameter. */
export const ruleMessages = {
  /** zod's `.url()` (a webhook endpoint's address): its own words, not the generic "not in the expected form". */
  webAddress: {
    en: 'Enter a full web address, such as https://example.com/webhooks.',
    'zh-CN': '请填写完整的网址，例如 https://example.com/webhooks。',
  },
  /** A webhook endpoint's URL (v1-webhooks.ts `webhookUrl`; the https rule is the server's, by its setting). */
  webhookUrlScheme: {
    en: 'A webhook address starts with http:// or https://.',
    'zh-CN': 'Webhook 地址须以 http:// 或 https:// 开头。',
  },
  webhookUrlCredentials: {
    en: 'Leave the user name or password out of the address; check the signature instead.',
    'zh-CN': '地址中请勿包含用户名或密码；请改为校验签名。',
  },
  webhookUrlFragment: {
    en: 'Leave the part after # out of the address: it is never sent to the server.',
    'zh-CN': '请去掉地址中 # 及其后的部分：这部分不会发送给服务器。',
  },
  webhookUrlHttps: {
    en: 'Use an https:// address: events are sent only over an encrypted connection.',
    'zh-CN': '请使用 https:// 地址：事件只通过加密连接发送。',
  },
  date: { en: 'Enter a date as YYYY-MM-DD.', 'zh-CN': '请按 YYYY-MM-DD 格式填写日期。' },
  dateExists: { en: 'This date does not exist.', 'zh-CN': '该日期不存在。' },
  dateRange: {
    en: 'Enter a date from 2000-01-01 to 2099-12-31.',
    'zh-CN': '请填写 2000-01-01 至 2099-12-31 之间的日期。',
  },
  instant: {
    en: 'Enter a time as ISO 8601 with its offset, e.g. 2026-12-06T08:00:00Z.',
    'zh-CN': '请按 ISO 8601 格式填写时间（含时区），例如 2026-12-06T08:00:00Z。',
  },
  cursor: { en: 'This cursor is not one this API gave.', 'zh-CN': '该游标不是本接口返回的。' },
  month: { en: 'Enter a month as YYYY-MM.', 'zh-CN': '请按 YYYY-MM 格式填写月份。' },
  divisionCode: {
    en: 'Choose a province, city or district from the list.',
    'zh-CN': '请从列表中选择省、市或区。',
  },
  itemPrice: {
    en: 'Enter a price such as 12 or 12.50 (at most 12 digits and 2 decimal places).',
    'zh-CN': '请输入价格，如 12 或 12.50（最多 12 位整数、2 位小数）。',
  },
  jan: {
    en: 'A JAN has 8 or 13 digits.',
    'zh-CN': 'JAN 码为 8 位或 13 位数字。',
  },
  tariff: {
    en: 'A tariff number has 6 to 13 digits.',
    'zh-CN': '税号为 6 至 13 位数字。',
  },
  origin: {
    en: 'Enter the country of origin as a two-letter code, such as JP.',
    'zh-CN': '原产国请填两位字母代码，如 JP。',
  },
  money: {
    en: 'Enter an amount such as 12 or 12.50 (digits, at most 4 decimal places).',
    'zh-CN': '请输入金额，如 12 或 12.50（数字，最多 4 位小数）。',
  },
  progressId: {
    en: 'Not a download name this console gives (8 to 64 letters, digits and dashes).',
    'zh-CN': '不是本控制台生成的下载标识（8 至 64 个字母、数字或短横线）。',
  },
  settingSeq: {
    en: 'Not a save stamp this console gives (up to 15 digits).',
    'zh-CN': '不是本控制台生成的保存序号（最多 15 位数字）。',
  },
  settingTooLarge: {
    en: 'This setting is too large to save (at most 64 KB).',
    'zh-CN': '该设置过大，无法保存（最多 64 KB）。',
  },
} satisfies Record<string, Text>;
export type RuleName = keyof typeof ruleMessages;

/** Rules added by other modules of the contract (the password policy), kept beside their own messages. */
const extraRules = new Map<string, Text>();
export function addRuleMessages(catalogue: Record<string, Text>): void {
  for (const [k, v] of Object.entries(catalogue)) extraRules.set(k, v);
}

/** The issue parameter naming a rule of `ruleMessages`. */
export const RULE_PARAM = 'rule';

const patterns = new Map<string, string>();
/** A regular expression whose refusal says `rule`'s message (`text().regex(pattern(/…/, 'date'))`). */
export function pattern(re: RegExp, rule: RuleName): RegExp {
  patterns.set(String(re), rule);
  return re;
}

/** A custom issue of a `.check()`, naming its rule. */
export function ruleIssue(input: unknown, rule: string): z.core.$ZodRawIssue {
  return { code: 'custom', input, params: { [RULE_PARAM]: rule } };
}

const generic = {
  required: { en: 'Required.', 'zh-CN': '必填。' },
  notText: { en: 'Enter text here.', 'zh-CN': '此处请填写文字。' },
  notNumber: { en: 'Enter a number.', 'zh-CN': '请输入数字。' },
  notWhole: { en: 'Enter a whole number.', 'zh-CN': '请输入整数。' },
  notBoolean: { en: 'Choose yes or no.', 'zh-CN': '请选择是或否。' },
  notList: { en: 'Enter one or more values.', 'zh-CN': '请填写一个或多个值。' },
  notGroup: { en: 'Fill in this part of the form.', 'zh-CN': '请填写此部分。' },
  notAccepted: { en: 'This value is not accepted here.', 'zh-CN': '此处不接受该值。' },
  choose: { en: 'Choose one of the options offered.', 'zh-CN': '请从给出的选项中选择。' },
  textMin: { en: 'Enter at least {n} characters.', 'zh-CN': '请至少输入 {n} 个字符。' },
  textMax: { en: 'Enter at most {n} characters.', 'zh-CN': '最多输入 {n} 个字符。' },
  numberMin: { en: 'Enter {n} or more.', 'zh-CN': '请输入不小于 {n} 的数。' },
  numberAbove: { en: 'Enter a number above {n}.', 'zh-CN': '请输入大于 {n} 的数。' },
  numberMax: { en: 'Enter {n} or less.', 'zh-CN': '请输入不大于 {n} 的数。' },
  numberBelow: { en: 'Enter a number below {n}.', 'zh-CN': '请输入小于 {n} 的数。' },
  listMin: { en: 'Choose at least {n}.', 'zh-CN': '请至少选择 {n} 项。' },
  listMax: { en: 'At most {n} at a time.', 'zh-CN': '一次最多 {n} 项。' },
  multipleOf: { en: 'Enter a multiple of {n}.', 'zh-CN': '请输入 {n} 的倍数。' },
  format: { en: 'This is not in the expected form.', 'zh-CN': '格式不正确。' },
  unknownFields: { en: 'Fields not expected here: {n}.', 'zh-CN': '多余的字段：{n}。' },
  badEntry: { en: 'One of the entries is not accepted.', 'zh-CN': '其中有一项不被接受。' },
} satisfies Record<string, Text>;

const fill = (t: Text, lang: ApiLanguage, n?: unknown) => t[lang].replace('{n}', String(n));

/** Every message this map can give, for the walking test (`{n}` as a wildcard). */
export function allFieldMessageTemplates(): Text[] {
  return [
    ...Object.values(generic),
    ...Object.values(ruleMessages),
    ...extraRules.values(),
    ...Object.values(textProblemMessages),
  ];
}

type Issue = z.core.$ZodRawIssue;

/** The user's message for one zod issue. */
export function fieldMessage(issue: Issue, lang: ApiLanguage): string {
  const i = issue as Issue & Record<string, any>;
  switch (i.code) {
    case 'invalid_type': {
      if (i.input === undefined || i.input === null) return generic.required[lang];
      const expected = i.expected as string;
      if (expected === 'string') return generic.notText[lang];
      if (expected === 'int') return generic.notWhole[lang];
      if (expected === 'number') return generic.notNumber[lang];
      if (expected === 'boolean') return generic.notBoolean[lang];
      if (expected === 'array') return generic.notList[lang];
      if (expected === 'object' || expected === 'record') return generic.notGroup[lang];
      return generic.notAccepted[lang];
    }
    case 'too_small': {
      if (i.origin === 'string')
        return i.minimum === 1 ? generic.required[lang] : fill(generic.textMin, lang, i.minimum);
      if (i.origin === 'array' || i.origin === 'set')
        return i.minimum === 1 ? generic.required[lang] : fill(generic.listMin, lang, i.minimum);
      return fill(i.inclusive === false ? generic.numberAbove : generic.numberMin, lang, i.minimum);
    }
    case 'too_big': {
      if (i.origin === 'string') return fill(generic.textMax, lang, i.maximum);
      if (i.origin === 'array' || i.origin === 'set') return fill(generic.listMax, lang, i.maximum);
      return fill(i.inclusive === false ? generic.numberBelow : generic.numberMax, lang, i.maximum);
    }
    case 'invalid_format': {
      const rule: string | undefined =
        i.format === 'regex' ? patterns.get(i.pattern as string) : i.format === 'url' ? 'webAddress' : undefined;
      return rule ? ruleText(rule, lang) : generic.format[lang];
    }
    case 'not_multiple_of':
      return fill(generic.multipleOf, lang, i.divisor);
    case 'invalid_value':
      return i.input === undefined ? generic.required[lang] : generic.choose[lang];
    case 'unrecognized_keys':
      return fill(generic.unknownFields, lang, (i.keys as string[]).join(', '));
    case 'invalid_union': {
      // A field that takes several shapes (a text or a list of numbers) and got nothing.
      if (i.input === undefined || i.input === null) return generic.required[lang];
      // One option refused it for a reason of its own: say that rather than "not accepted".
      const own = (i.errors as { code: string; message: string }[][] | undefined)
        ?.flat()
        .find((e) => e.code !== 'invalid_type');
      return own?.message ?? generic.notAccepted[lang];
    }
    case 'invalid_key':
    case 'invalid_element':
      return generic.badEntry[lang];
    case 'custom': {
      const problem = i.params?.[TEXT_RULE_PARAM] as TextProblem | undefined;
      if (problem) return textProblemMessages[`text_${problem}`][lang];
      const rule = i.params?.[RULE_PARAM] as string | undefined;
      return rule ? ruleText(rule, lang) : generic.notAccepted[lang];
    }
    default:
      return generic.notAccepted[lang];
  }
}

/** A rule's own texts, if the contract names that rule (the server raises some itself). */
export function ruleMessage(rule: string): Text | undefined {
  return (ruleMessages as Record<string, Text>)[rule] ?? extraRules.get(rule);
}

function ruleText(rule: string, lang: ApiLanguage): string {
  const t = (ruleMessages as Record<string, Text>)[rule] ?? extraRules.get(rule);
  return t ? t[lang] : generic.notAccepted[lang];
}

/** A zod error map speaking the user's language in the contract's words. */
export function contractErrorMap(lang: ApiLanguage): z.core.$ZodErrorMap {
  return (issue) => fieldMessage(issue, lang);
}
