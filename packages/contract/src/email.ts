import { z } from 'zod';
import { text } from './fields.ts';
import { addRuleMessages, ruleIssue } from './messages.ts';

/**
 * The one e-mail address rule of the contract (finding 14 of issue 26): every e-mail field takes
 * exactly one address. A looser pattern let `x,y,victim@evil.example` through, and the mailer
 * read it as a list and sent the permit to the last address. So: RFC 5322's dot-atom local part
 * (no quotes, spaces, commas, semicolons, angle brackets or comments: nothing a mailer reads as a
 * second address or a display name) and a DNS host name of two labels or more. Plain ASCII: the
 * addresses our customers and brokers use are, and an SMTP server without SMTPUTF8 refuses the rest.
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
export const EMAIL_PATTERN = new RegExp(
  `^(?=[^@]{1,64}@)${ATEXT}(?:\\.${ATEXT})*@(?:${LABEL}\\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$`,
);

/** One address as the rule above reads it (at most 254 characters, RFC 5321's path limit). */
export function isEmailAddress(s: string): boolean {
  return s.length <= 254 && EMAIL_PATTERN.test(s);
}

addRuleMessages({
  email: {
    en: 'Enter one email address such as name@example.com (no lists, names or quotes).',
    'zh-CN': '请输入一个有效的邮箱地址，如 name@example.com（不能填多个地址、姓名或引号）。',
  },
});

/** An e-mail field: one address, trimmed; `optional`: empty is allowed (nothing to send to). */
export function emailAddress(opts: { optional?: boolean } = {}): z.ZodString {
  return text({ min: opts.optional ? 0 : 1, max: 254 }).check((ctx) => {
    if ((!opts.optional || ctx.value !== '') && !isEmailAddress(ctx.value))
      ctx.issues.push(ruleIssue(ctx.value, 'email'));
  });
}
