/**
 * The edit form of one record (issue 28, finding 1). A page in a tab stays mounted while the
 * user works in other tabs, and <Activity> re-runs its effects each time the tab is shown;
 * the record's query also answers again (staleness, another page's save). An effect that
 * copied the answer into the form on every such run replaced what the user had typed with
 * the saved record. Here the form is filled from the record once per load of that record,
 * and remembers whether the user has changed it since.
 *
 *   const edit = useRecordForm(form, id, q.data, fromItem);
 *   useTabDirty(edit.dirty);
 *   <Form form={form} onValuesChange={edit.touched}>…
 *   // after a successful save:
 *   edit.saved();
 */
import type { FormInstance } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface RecordForm {
  /** The user changed a field since the record was loaded (or last saved). */
  dirty: boolean;
  /** For the form's `onValuesChange` (called for the user's changes only, not `setFieldsValue`). */
  touched: () => void;
  /** The record was saved: clean again, and the next answer of its query fills the form. */
  saved: () => void;
}

export function useRecordForm<R, V extends object>(
  form: FormInstance,
  recordKey: unknown,
  record: R | undefined,
  toValues: (record: R) => V,
): RecordForm {
  const [dirty, setDirty] = useState(false);
  // Refs survive <Activity> hiding the page; only closing or refreshing the tab drops them.
  const filledFor = useRef<{ key: unknown } | null>(null);
  const convert = useRef(toValues);
  convert.current = toValues;

  useEffect(() => {
    if (record === undefined || (filledFor.current && Object.is(filledFor.current.key, recordKey))) return;
    filledFor.current = { key: recordKey };
    form.resetFields();
    form.setFieldsValue(convert.current(record));
    setDirty(false);
  }, [form, record, recordKey]);

  const touched = useCallback(() => setDirty(true), []);
  const saved = useCallback(() => {
    filledFor.current = null;
    setDirty(false);
  }, []);
  return { dirty, touched, saved };
}
