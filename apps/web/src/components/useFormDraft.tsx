import type { FormInstance } from 'antd';
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTab } from '@/components/tab-context.ts';
import { formatTime, registerMessages, t, useSession } from '@/lib';
import { dropDraft, readDraft, registerDraftSource } from '@/lib/form-drafts.ts';

registerMessages('draft', {
  'zh-chs': {
    title: '恢复未保存的修改？',
    content: '上次登录状态失效时，此页有未保存的修改，已保留在本浏览器中（{time}）。恢复到表单，还是放弃？',
    restore: '恢复',
    discard: '放弃',
  },
  en: {
    title: 'Restore your unsaved changes?',
    content:
      'Your session ended while this page had unsaved changes; they were kept in this browser ({time}). Restore them into the form, or discard them?',
    restore: 'Restore',
    discard: 'Discard',
  },
});

/**
 * A form whose values are kept as a draft when the session ends while it is dirty, and offered
 * back to the same user on this page after the next login (issue 36 #19; lib/form-drafts.ts says
 * what is kept, for whom and how long). One line on a page:
 *
 *   useFormDraft(form, draft);                      // a create page (useCreateFormDirty)
 *   useFormDraft(form, edit, { ready: !!q.data });  // an edit page (useRecordForm), once filled
 *
 * Restored, the values fill the form and the tab stays dirty; restored, discarded or saved, the
 * draft is gone.
 */
export function useFormDraft(
  form: FormInstance,
  state: { dirty: boolean; touched: () => void },
  opts: { ready?: boolean } = {},
) {
  const { path, active } = useTab();
  const user = useSession().user?.name;
  const { modal } = App.useApp();
  const { dirty, touched } = state;
  const ready = opts.ready ?? true;

  // No clean-up: a hidden tab's effects are torn down while its form (and its edits) live on.
  useEffect(() => registerDraftSource(path, () => form.getFieldsValue(true) as Record<string, unknown>), [path, form]);

  // Saved (or created): a draft of this page is of no more use.
  const wasDirty = useRef(dirty);
  useEffect(() => {
    if (wasDirty.current && !dirty && user) dropDraft(user, path);
    wasDirty.current = dirty;
  }, [dirty, user, path]);

  // Offered once per page, when it is shown (an edit page once its record has filled the form).
  const offered = useRef(false);
  useEffect(() => {
    if (offered.current || !user || !active || !ready) return;
    offered.current = true;
    const draft = readDraft(user, path);
    if (!draft) return;
    modal.confirm({
      title: t('draft.title'),
      content: t('draft.content', { time: formatTime(draft.at) }),
      okText: t('draft.restore'),
      cancelText: t('draft.discard'),
      // Only the two buttons answer: Esc or a click beside the dialog must not discard the draft.
      closable: false,
      keyboard: false,
      maskClosable: false,
      onOk: () => {
        form.setFieldsValue(draft.values);
        touched();
        dropDraft(user, path);
      },
      onCancel: () => dropDraft(user, path),
    });
  }, [user, active, ready, path, form, modal, touched]);
}
