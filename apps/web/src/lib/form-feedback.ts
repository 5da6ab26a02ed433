/**
 * Spec §8's 'Form verification failed, please check' (issue 28, item 21): shown whenever a
 * submit stops at client validation, beside the fields' own messages, so a user whose first
 * wrong field is scrolled out of view (a long order form, a modal's lower half) still learns why
 * nothing happened. One place for every form: components/form.tsx's <Form> calls it from
 * onFinishFailed, and submits that read a form themselves (modal OK buttons) use validateForSubmit.
 */
import type { FormInstance } from 'antd';
import { feedback } from './feedback.ts';
import { ApiError, errorText } from './http.ts';
import { t } from './i18n.ts';
import { isValidationError } from './validation-error.ts';

/** One toast however often the user presses submit: the same key replaces the last one. */
export const FORM_INVALID_KEY = 'form-invalid';

export function reportInvalidForm(): void {
  void feedback().then((f) => f.message.error({ content: t('feedback.formInvalid'), key: FORM_INVALID_KEY }));
}

/**
 * `form.validateFields()` for a submit: the values, or the rejection rethrown after the label is
 * shown. (Validating one field as another changes is not a submit: call validateFields(names).)
 */
export async function validateForSubmit<V>(form: FormInstance<V>): Promise<V> {
  try {
    return await form.validateFields();
  } catch (e) {
    if (isValidationError(e)) reportInvalidForm();
    throw e;
  }
}

/** A 422's field errors as antd form fields (dotted paths → name arrays, `items.0.name` → ['items', 0, 'name']); null for any other failure. */
export function formErrors(e: unknown): { name: (string | number)[]; errors: string[] }[] | null {
  if (!(e instanceof ApiError) || e.code !== 422) return null;
  return Object.entries(e.fieldErrors).map(([k, errors]) => ({
    name: k.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
    errors,
  }));
}

/**
 * A failed save as a user should see it: the server's field errors under their fields (the first
 * scrolled into view, `scroll`, for a form longer than the window), anything else in a red toast.
 */
export function showSaveError(form: FormInstance, e: unknown, { scroll = false } = {}): void {
  const fields = formErrors(e);
  if (!fields) {
    void feedback().then((f) => f.message.error(errorText(e)));
    return;
  }
  form.setFields(fields);
  if (scroll && fields[0]) form.scrollToField(fields[0].name);
}
