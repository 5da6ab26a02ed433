/**
 * Issue 28 #10, "请输入orderNo": antd fills a rule's default message ("请输入${label}") with the
 * item's label only when the label is text; otherwise with the field's name, a key. This walks
 * every Form.Item of the console and fails on one whose rules fall back to antd's message while
 * the item gives no text label (`label={t(…)}`), no `messageVariables` naming the field, and is
 * not a `noStyle` part of an item with a text label.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { calls, leavesOf } from '@console/contract';
import { messageKeys, setLocale, t } from '../src/lib/i18n.ts';

const src = join(import.meta.dirname, '../src');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.tsx') ? [p] : [];
  });
}

/** Whether a label expression is text: a string, a template, or a call of t() (or a page's own l()). */
const isTextLabel = (e: ts.Expression | undefined): boolean =>
  !!e &&
  (ts.isStringLiteral(e) ||
    ts.isNoSubstitutionTemplateLiteral(e) ||
    ts.isTemplateExpression(e) ||
    (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && ['t', 'l', 'label'].includes(e.expression.text)) ||
    (ts.isConditionalExpression(e) && isTextLabel(e.whenTrue) && isTextLabel(e.whenFalse)));

/** Whether some rule of a rules array literal takes antd's default message (no `message`, not a validator). */
function defaultMessageRule(e: ts.Expression): boolean {
  const rules: ts.Expression[] = [];
  const collect = (x: ts.Expression) => {
    if (ts.isArrayLiteralExpression(x)) x.elements.forEach((el) => collect(el as ts.Expression));
    else if (ts.isConditionalExpression(x)) [x.whenTrue, x.whenFalse].forEach(collect);
    else if (ts.isParenthesizedExpression(x)) collect(x.expression);
    else rules.push(x);
  };
  collect(e);
  return rules.some((r) => {
    if (!ts.isObjectLiteralExpression(r)) return false;
    const names = r.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : ''));
    return !names.includes('message') && !names.includes('validator');
  });
}

/**
 * A `noStyle` item inside a Form.Item with a text label: antd shows its errors under that item and
 * names the field by that label (e2e/orders/field-names.spec.ts sees "请输入订单号" on the create page).
 */
function labelledParent(n: ts.Node): boolean {
  for (let p = n.parent?.parent; p; p = p.parent) {
    if (ts.isJsxElement(p) && p.openingElement.tagName.getText() === 'Form.Item') {
      const label = p.openingElement.attributes.properties.find(
        (a): a is ts.JsxAttribute => ts.isJsxAttribute(a) && a.name.getText() === 'label',
      );
      const e =
        label?.initializer && ts.isJsxExpression(label.initializer) ? label.initializer.expression : label?.initializer;
      return isTextLabel(e as ts.Expression | undefined);
    }
  }
  return false;
}

function offenders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) {
      if (n.tagName.getText(sf) === 'Form.Item') {
        const attr = (name: string) =>
          n.attributes.properties.find(
            (p): p is ts.JsxAttribute => ts.isJsxAttribute(p) && p.name.getText(sf) === name,
          );
        const expr = (a: ts.JsxAttribute | undefined) =>
          a?.initializer && ts.isJsxExpression(a.initializer) ? a.initializer.expression : a?.initializer;
        const rules = expr(attr('rules'));
        if (
          rules &&
          defaultMessageRule(rules as ts.Expression) &&
          !attr('messageVariables') &&
          !isTextLabel(expr(attr('label')) as ts.Expression | undefined) &&
          !(attr('noStyle') && labelledParent(n))
        ) {
          const { line } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
          out.push(`${relative(src, file)}:${line + 1}`);
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('form rules name the field, never its key', () => {
  it('every Form.Item whose rules use antd’s message has a text label or names the field', () => {
    expect(sources(src).flatMap(offenders)).toEqual([]);
  });
});

/** A key reads as code, not as a word: camelCase or snake_case (plain words such as "name" are words). */
const looksLikeKey = (k: string) => /[a-z][A-Z]|_/.test(k) && k.length > 2;

describe('console messages name fields, never keys', async () => {
  // Every table the console registers (the i18n parity test finds them the same way).
  const tables = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\./.test(f) && !f.endsWith('lib/i18n.ts'))
    .map((f) => join(src, f))
    .filter((f) => /\bregisterMessages\(/.test(readFileSync(f, 'utf8')));
  for (const f of tables) await import(/* @vite-ignore */ f);

  it('no message of the console, in either language, shows a request field key of the contract', () => {
    const keys = new Set<string>();
    for (const group of Object.values(calls) as Record<string, { request?: unknown }>[])
      for (const call of Object.values(group)) {
        if (!call?.request) continue;
        for (const leaf of leavesOf(call.request as never))
          for (const p of leaf.path) if (typeof p === 'string' && looksLikeKey(p)) keys.add(p);
      }
    expect(keys.has('orderNo')).toBe(true);
    const found: string[] = [];
    for (const locale of ['zh-chs', 'en'] as const) {
      setLocale(locale);
      for (const key of messageKeys(locale)) {
        const text = t(key).replace(/\{\w+\}|\$\{\w+\}/g, ' ');
        for (const word of text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])
          if (keys.has(word)) found.push(`${locale} ${key}: ${word}`);
      }
    }
    setLocale('zh-chs');
    expect(found).toEqual([]);
  });
});
