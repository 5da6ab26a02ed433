/**
 * antd's Form with spec §8's 'Form verification failed, please check' on every failed submit
 * (issue 28, item 21): features import Form from here (lint forbids antd's), so a new form
 * cannot forget it. Everything else — Form.Item, Form.List, Form.useForm… — is antd's own.
 */
import { Form as AntForm } from 'antd';
import type { ReactElement } from 'react';
import { reportInvalidForm } from '@/lib/form-feedback.ts';

/** antd's own props, ref included (React 19 passes it as a prop). */
type Props<Values> = Parameters<typeof AntForm<Values>>[0];

function FeedbackForm<Values = any>(props: Props<Values>): ReactElement {
  const { onFinishFailed } = props;
  return (
    <AntForm<Values>
      {...props}
      onFinishFailed={(info) => {
        reportInvalidForm();
        onFinishFailed?.(info);
      }}
    />
  );
}

export const Form = Object.assign(FeedbackForm, {
  Item: AntForm.Item,
  List: AntForm.List,
  ErrorList: AntForm.ErrorList,
  Provider: AntForm.Provider,
  useForm: AntForm.useForm,
  useFormInstance: AntForm.useFormInstance,
  useWatch: AntForm.useWatch,
});
export { formErrors, showSaveError, validateForSubmit } from '@/lib/form-feedback.ts';
