import { z } from 'zod';
import type { ApiLanguage } from './i18n.ts';

/**
 * The rules every request field of the contract is built from, so that no field can
 * slip past them: text (`text()`), ids (`idOf`) and whole numbers (`whole()`).
 * `fields.test.ts` walks every call's request schema and fails on a string or number
 * that does not refuse what these refuse.
 */

/** The largest id: every table's key is a PostgreSQL `integer`. */
export const MAX_ID = 2_147_483_647;

/** Why a text is refused. */
export type TextProblem = 'control' | 'bidi' | 'surrogate';

// One scan for everything suspect, without the `u` flag so it also stops at surrogates
// (emoji pairs included: rare in a cell, they are then looked at closely). A cell or field
// without any of these, nearly all of them, costs one regex test.
// Matching control characters is the point of these expressions.
// eslint-disable-next-line no-control-regex
const SUSPECT = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * The one text rule. Control characters (NUL above all: PostgreSQL cannot store it,
 * SQLite stores it and every reader then trips on it), lone UTF-16 surrogates (not
 * text; invalid in UTF-8) and bidirectional embeddings/overrides/isolates (they make a
 * name or file name read differently from what it is) are refused. Tab and line
 * breaks only where the field is multi-line.
 */
export function textProblem(s: string, multiline = false): TextProblem | null {
  if (!SUSPECT.test(s)) return null;
  if (BIDI.test(s)) return 'bidi';
  if ((multiline ? CONTROL : CONTROL_OR_BREAK).test(s)) return 'control';
  if (!s.isWellFormed()) return 'surrogate';
  return null;
}

/** What a user reads when a text is refused (a 422 field message, a preview row's error). */
export const textProblemMessages: Record<`text_${TextProblem}`, Record<ApiLanguage, string>> = {
  text_control: {
    en: 'Contains an invisible control character (such as NUL or a line break). Remove it and try again.',
    'zh-CN': '含有不可见的控制字符（如 NUL 或换行）。请删除后重试。',
  },
  text_bidi: {
    en: 'Contains an invisible text-direction character (U+202A–U+202E, U+2066–U+2069). Remove it and try again.',
    'zh-CN': '含有不可见的文字方向控制字符（U+202A–U+202E、U+2066–U+2069）。请删除后重试。',
  },
  text_surrogate: {
    en: 'Contains a broken character (half of a character pair). Retype the text and try again.',
    'zh-CN': '含有损坏的字符（不完整的字符对）。请重新输入后重试。',
  },
};

/**
 * A zod issue of the text rule carries `params.textRule`; the server's error map turns
 * it into `textProblemMessages` in the caller's language.
 */
export const TEXT_RULE_PARAM = 'textRule';

function textRule(multiline: boolean) {
  return (ctx: z.core.ParsePayload<string>) => {
    const problem = textProblem(ctx.value, multiline);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, params: { [TEXT_RULE_PARAM]: problem } });
  };
}

/**
 * Every text field of a request: trimmed (unless `trim: false`), bounded, and refused
 * when `textProblem` finds something. Refine further with `.regex()` and the like.
 */
export function text(opts: { max: number; min?: number; multiline?: boolean; trim?: boolean }): z.ZodString {
  let s = z.string();
  if (opts.trim !== false) s = s.trim();
  if (opts.min) s = s.min(opts.min);
  return s.max(opts.max).check(textRule(opts.multiline ?? false));
}

/** Every string inside a free-form JSON value (a saved setting), keys included, under the text rule. */
export function jsonTextProblem(v: unknown, depth = 0): TextProblem | null {
  if (typeof v === 'string') return textProblem(v);
  if (depth > 64 || v === null || typeof v !== 'object') return null;
  for (const [k, x] of Object.entries(v)) {
    const p = (Array.isArray(v) ? null : textProblem(k)) ?? jsonTextProblem(x, depth + 1);
    if (p) return p;
  }
  return null;
}

/** A free-form JSON value whose strings obey the text rule. */
export function jsonValue() {
  return z.unknown().check((ctx) => {
    const problem = jsonTextProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, params: { [TEXT_RULE_PARAM]: problem } });
  });
}

// Digit strings come from multipart fields and hand-written clients; anything else
// (booleans, arrays, '1e3', ' 7') is refused rather than coerced, so `[5]` is not 5.
const digits = (v: unknown) => (typeof v === 'string' && /^\d{1,20}$/.test(v) ? Number(v) : v);

/** A whole number in [min, max]; bounded so nothing past a database integer reaches SQL. */
export function whole(min: number, max: number) {
  return z.preprocess(digits, z.number().min(min).max(max).int());
}

/** An id: 1 … 2³¹−1, as a number or a digit string. */
export const idOf = whole(1, MAX_ID);
