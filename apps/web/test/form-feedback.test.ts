/**
 * Issue 28, item 21: every form's failed submit shows spec §8's 'Form verification failed, please
 * check' — through the shared <Form> (onFinishFailed) and validateForSubmit (modal OK buttons).
 */
import type { FormInstance } from 'antd';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Form, formErrors, showSaveError, validateForSubmit } from '../src/components/form.tsx';
import { setFeedback, type Feedback } from '../src/lib/feedback.ts';
import { FORM_INVALID_KEY } from '../src/lib/form-feedback.ts';
import { ApiError } from '../src/lib/http.ts';
import { setLocale } from '../src/lib/i18n.ts';
import '../src/lib/messages.ts';

let shown: { level: string; content: unknown; key: unknown }[] = [];
const record =
  (level: string) =>
  (args: unknown): never => {
    const a = (typeof args === 'string' ? { content: args } : args) as { content: unknown; key: unknown };
    shown.push({ level, content: a.content, key: a.key });
    return undefined as never;
  };

beforeEach(() => {
  shown = [];
  setFeedback({
    message: { error: record('error'), success: record('success') },
  } as unknown as Feedback);
});
afterEach(() => {
  setFeedback(null);
  setLocale('zh-chs');
});

/** The toasts are shown after feedback() resolves (a microtask). */
const settle = () => new Promise((r) => setTimeout(r, 0));

const failure = {
  values: {},
  errorFields: [{ name: ['orderNo'], errors: ['Required'], warnings: [] }],
  outOfDate: false,
};

describe('the shared <Form>', () => {
  it("shows the label when a submit fails validation, then calls the page's own onFinishFailed", async () => {
    setLocale('en');
    const seen: unknown[] = [];
    const el = (Form as unknown as (p: object) => ReactElement<{ onFinishFailed: (i: unknown) => void }>)({
      onFinishFailed: (info: unknown) => seen.push(info),
    });
    el.props.onFinishFailed(failure);
    await settle();
    expect(shown).toEqual([
      { level: 'error', content: 'Form verification failed, please check', key: FORM_INVALID_KEY },
    ]);
    expect(seen).toEqual([failure]);
  });

  it('shows it in Chinese too, and without a handler of the page', async () => {
    setLocale('zh-chs');
    const el = (Form as unknown as (p: object) => ReactElement<{ onFinishFailed: (i: unknown) => void }>)({});
    el.props.onFinishFailed(failure);
    await settle();
    expect(shown.map((s) => s.content)).toEqual(['表单校验失败，请检查']);
  });

  it("keeps antd's statics (Form.Item, Form.useForm…) so pages change only their import", () => {
    for (const k of ['Item', 'List', 'ErrorList', 'Provider', 'useForm', 'useFormInstance', 'useWatch'] as const)
      expect(typeof Form[k]).toBe('function');
  });
});

describe('validateForSubmit', () => {
  const formRejecting = (e: unknown) => ({ validateFields: () => Promise.reject(e) }) as unknown as FormInstance;

  it('returns the values of a valid form and shows nothing', async () => {
    const form = { validateFields: () => Promise.resolve({ note: 'x' }) } as unknown as FormInstance<{ note: string }>;
    await expect(validateForSubmit(form)).resolves.toEqual({ note: 'x' });
    await settle();
    expect(shown).toEqual([]);
  });

  it('shows the label and still rejects, so the submit stops', async () => {
    setLocale('en');
    await expect(validateForSubmit(formRejecting(failure))).rejects.toBe(failure);
    await settle();
    expect(shown.map((s) => s.content)).toEqual(['Form verification failed, please check']);
  });

  it('an error that is not a validation failure is passed on without the label', async () => {
    const boom = new Error('boom');
    await expect(validateForSubmit(formRejecting(boom))).rejects.toBe(boom);
    await settle();
    expect(shown).toEqual([]);
  });
});

/** A failed save (one helper for every edit page): the server's 422 under the fields, anything else a toast. */
describe('showSaveError', () => {
  const invalid = new ApiError(422, 'Validation failed', { 'items.0.name': ['Required'], phone: ['Wrong'] }, 'x');
  const recording = () => {
    const calls: { set?: unknown; scrolled?: unknown } = {};
    const form = {
      setFields: (f: unknown) => (calls.set = f),
      scrollToField: (n: unknown) => (calls.scrolled = n),
    } as unknown as FormInstance;
    return { form, calls };
  };

  it("reads a 422's dotted paths as field names, list indexes as numbers; null for any other failure", () => {
    expect(formErrors(invalid)).toEqual([
      { name: ['items', 0, 'name'], errors: ['Required'] },
      { name: ['phone'], errors: ['Wrong'] },
    ]);
    expect(formErrors(new ApiError(409, 'Changed', null, 'x'))).toBeNull();
    expect(formErrors(new Error('boom'))).toBeNull();
  });

  it('puts the errors under their fields, scrolls to the first only when asked, and shows no toast', async () => {
    const plain = recording();
    showSaveError(plain.form, invalid);
    expect(plain.calls.set).toEqual(formErrors(invalid));
    expect(plain.calls.scrolled).toBeUndefined();
    const long = recording();
    showSaveError(long.form, invalid, { scroll: true });
    expect(long.calls.scrolled).toEqual(['items', 0, 'name']);
    await settle();
    expect(shown).toEqual([]);
  });

  it("any other failure is the server's message in a red toast, the form untouched", async () => {
    const { form, calls } = recording();
    showSaveError(form, new ApiError(409, 'Someone else saved it first', null, 'x'));
    await settle();
    expect(calls).toEqual({});
    expect(shown).toEqual([{ level: 'error', content: 'Someone else saved it first', key: undefined }]);
  });
});
