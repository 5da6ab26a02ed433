import { App, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { registerMessages, t } from '@/lib';
import { changedFields, type FieldChange, staleOf } from './changes.ts';

registerMessages('stale', {
  'zh-chs': {
    title: '此记录已被他人修改',
    explain: '本次保存未生效。您打开后，以下字段已被他人修改（原值 → 现值）：',
    noFieldChanged: '您看到的字段没有变化（可能是状态或其他字段被修改）。',
    reload: '重新加载（放弃我的修改）',
    keepMine: '保留我的修改（再次保存将覆盖）',
    empty: '（空）',
  },
  en: {
    title: 'This record was changed by someone else',
    explain: 'Your save was not made. Since you opened it, these fields were changed (was → now):',
    noFieldChanged: 'None of the fields you see changed (its status or another field did).',
    reload: 'Reload (discard my changes)',
    keepMine: 'Keep my values (saving again overwrites)',
    empty: '(empty)',
  },
});

const shown = (v: unknown) => (v === null || v === undefined || v === '' ? t('stale.empty') : String(v));

function Changes({ changes, label }: { changes: FieldChange[]; label: (path: string) => string }) {
  return (
    <div data-testid="stale-dialog">
      <Typography.Paragraph>{t('stale.explain')}</Typography.Paragraph>
      {changes.length ? (
        <ul style={{ paddingInlineStart: 18, maxHeight: 320, overflow: 'auto' }}>
          {changes.map((c) => (
            <li key={c.path} data-testid="stale-change">
              <Typography.Text strong>{label(c.path)}</Typography.Text>:{' '}
              <Typography.Text delete>{shown(c.before)}</Typography.Text>
              {' → '}
              <Typography.Text mark>{shown(c.after)}</Typography.Text>
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Paragraph type="secondary">{t('stale.noFieldChanged')}</Typography.Paragraph>
      )}
    </div>
  );
}

/**
 * One stale-save handling for every edit form (issue 28 #3). The form sends the version it was
 * loaded from; when the server refuses it (409 with the record now), this shows which of the
 * fields the form shows changed (was → now) and lets the user choose: reload the record (their
 * edits go) or keep their values with the new version (the next save knowingly overwrites).
 * Nothing is dropped or overwritten without that choice; the dialog cannot be dismissed.
 *
 * `record` is the record as the page reads it; every version it has been seen at is kept, so
 * the changes are measured from the one the form was loaded from even after a refetch.
 */
export function useStaleSave<T extends { version: number }>(
  record: T | undefined,
  opts: {
    /** The form's fields, compared (`items.*.name`: every item's name); all of `project`'s when absent. */
    fields?: readonly string[];
    /** The record as the form shows it (names rather than ids); the record itself when absent. */
    project?: (record: T) => unknown;
    label: (path: string) => string;
  },
) {
  const { modal } = App.useApp();
  const seen = useRef(new Map<number, T>());
  useEffect(() => {
    if (record) seen.current.set(record.version, record);
  }, [record]);
  return {
    /**
     * When `e` is a stale save's 409: shows the dialog and resolves true once the user chose
     * (after `reload` or `keep` ran). Resolves false for any other failure, for the page to show.
     */
    async resolve(
      e: unknown,
      sentVersion: number | undefined,
      actions: { reload: (current: T) => void | Promise<void>; keep: (current: T) => void },
    ): Promise<boolean> {
      const stale = staleOf<T>(e);
      if (!stale) return false;
      const loaded = (sentVersion !== undefined && seen.current.get(sentVersion)) || record;
      seen.current.set(stale.version, stale.current);
      const project = opts.project ?? ((r: T) => r);
      const changes = changedFields(loaded && project(loaded), project(stale.current), opts.fields);
      await new Promise<void>((done) =>
        modal.confirm({
          title: t('stale.title'),
          width: 560,
          content: <Changes changes={changes} label={opts.label} />,
          okText: t('stale.reload'),
          cancelText: t('stale.keepMine'),
          closable: false,
          maskClosable: false,
          keyboard: false,
          onOk: async () => {
            await actions.reload(stale.current);
            done();
          },
          onCancel: () => {
            actions.keep(stale.current);
            done();
          },
        }),
      );
      return true;
    },
  };
}
