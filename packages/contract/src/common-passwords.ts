// The list module has no types of its own; an import of a .d.ts would be loaded at run time.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./zxcvbn-list.d.ts" />
import list from '@zxcvbn-ts/language-common/dist/passwords.json.mjs';
import { PASSWORD_MIN } from './password.ts';

/**
 * Common passwords: the list of zxcvbn-ts (`@zxcvbn-ts/language-common`, MIT, maintained;
 * about 49,000 passwords ranked by frequency in public breach corpora), of which only the
 * entries long enough to pass the length rule matter. A separate entry point of the
 * contract (`@console/contract/common-passwords`): 380 KB that the console loads only in
 * the change-password form, never in its main chunks.
 */
/** Roots searched under added digits and symbols: the list's first thousand, by frequency. */
const TOP_ROOTS = 1000;

let sets: { whole: Set<string>; roots: Set<string> } | undefined;
const common = () =>
  (sets ??= {
    whole: new Set(list.filter((p) => p.length >= PASSWORD_MIN)),
    roots: new Set(list.slice(0, TOP_ROOTS).filter((p) => /^\p{L}{4,}$/u.test(p))),
  });

/**
 * The password, in any case, is on the list, or is one of the most common roots with
 * digits and symbols added at the end ("Password123!" is "password" and "123!"), the
 * usual way a common password is dressed up to pass composition rules. Only the first
 * thousand roots: the list's tail holds ordinary words ("changed", "demo"), and a word
 * with a year after it is not what the rule is about.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const { whole, roots } = common();
  if (whole.has(lower)) return true;
  const stem = lower.replace(/[^\p{L}]+$/u, '');
  return stem !== lower && roots.has(stem);
}
