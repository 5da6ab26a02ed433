import { App, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { registerMessages, t } from '@/lib';
import { changedFields, type FieldChange, staleOf } from './changes.ts';
import { mergeRecords, type Merge } from './merge.ts';

registerMessages('stale', {
  'zh-chs': {
    title: '此记录已被他人修改',
    explain: '本次保存未生效。您打开后，以下字段已被他人修改（原值 → 现值）：',
    noFieldChanged: '您看到的字段没有变化（可能是状态或其他字段被修改）。',
    reload: '重新加载（放弃我的修改）',
    keepMine: '保留我的修改（其余采用他人的修改）',
    ifKept: '选择“保留我的修改”后，请检查表单并再次保存：',
    keptMine: '保留您的修改：',
    takeTheirs: '采用他人的修改：',
    bothChanged: '双方都修改了（以您的修改为准，他人的修改将被覆盖）：',
    nothingMine: '您没有修改任何字段。',
    separator: '、',
    empty: '（空）',
  },
  en: {
    title: 'This record was changed by someone else',
    explain: 'Your save was not made. Since you opened it, these fields were changed (was → now):',
    noFieldChanged: 'None of the fields you see changed (its status or another field did).',
    reload: 'Reload (discard my changes)',
    keepMine: 'Keep my changes (the rest takes theirs)',
    ifKept: 'If you keep your changes, check the form and save again:',
    keptMine: 'Your changes kept:',
    takeTheirs: 'Their changes taken:',
    bothChanged: 'Changed by both (yours win, theirs are overwritten):',
    nothingMine: 'You changed none of the fields.',
    separator: ', ',
    empty: '(empty)',
  },
});

const shown = (v: unknown) => (v === null || v === undefined || v === '' ? t('stale.empty') : String(v));

/** One group of the merge's fields, by their form labels. */
function Fields({ testId, title, paths, label }: { testId: string; title: string; paths: string[]; label: Label }) {
  if (!paths.length) return null;
  return (
    <Typography.Paragraph data-testid={testId} style={{ marginBottom: 4 }}>
      {title} {paths.map(label).join(t('stale.separator'))}
    </Typography.Paragraph>
  );
}

type Label = (path: string) => string;

function Changes({
  changes,
  label,
  merge,
  formLabel,
}: {
  changes: FieldChange[];
  label: Label;
  merge: Merge<unknown> | null;
  formLabel: Label;
}) {
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
      {merge && (
        <div data-testid="stale-merge">
          <Typography.Paragraph strong style={{ marginBottom: 4 }}>
            {t('stale.ifKept')}
          </Typography.Paragraph>
          <Fields testId="stale-mine" title={t('stale.keptMine')} paths={merge.mine} label={formLabel} />
          <Fields testId="stale-theirs" title={t('stale.takeTheirs')} paths={merge.theirs} label={formLabel} />
          <Fields testId="stale-both" title={t('stale.bothChanged')} paths={merge.both} label={formLabel} />
          {!merge.mine.length && !merge.both.length && (
            <Typography.Paragraph type="secondary">{t('stale.nothingMine')}</Typography.Paragraph>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * One stale-save handling for every edit form (issue 28 #3). The form sends the version it was
 * loaded from; when the server refuses it (409 with the record now), this shows which of the
 * fields the form shows changed (was → now) and lets the user choose: reload the record (their
 * edits go) or keep their changes (issue 36 #20): a three-way merge over the record as the form
 * was loaded from it keeps the fields the user changed and takes the others' values for the rest;
 * a field both changed keeps the user's value. The dialog names each group by the form's labels,
 * and the form takes the merged values with the new version (the user saves again).
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
    /**
     * The form's own fields, for the merge, when they differ from the record's as shown
     * (`project`: names where the form holds ids): `fields` and `label` when absent.
     */
    form?: { fields?: readonly string[]; label?: (path: string) => string };
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
     * `mine` is the form's values, `values` the record as the form's values (what the form was
     * filled with); `keep` gets the merged values to set (the caller sets the new version).
     */
    async resolve<V>(
      e: unknown,
      sentVersion: number | undefined,
      actions: {
        mine: V;
        values: (record: T) => unknown;
        reload: (current: T) => void | Promise<void>;
        keep: (current: T, merged: V) => void;
      },
    ): Promise<boolean> {
      const stale = staleOf<T>(e);
      if (!stale) return false;
      const loaded = (sentVersion !== undefined && seen.current.get(sentVersion)) || record;
      seen.current.set(stale.version, stale.current);
      const project = opts.project ?? ((r: T) => r);
      const changes = changedFields(loaded && project(loaded), project(stale.current), opts.fields);
      const merge = loaded
        ? mergeRecords(
            actions.values(loaded),
            actions.mine,
            actions.values(stale.current),
            opts.form?.fields ?? opts.fields,
          )
        : null;
      await new Promise<void>((done) =>
        modal.confirm({
          title: t('stale.title'),
          width: 560,
          content: (
            <Changes changes={changes} label={opts.label} merge={merge} formLabel={opts.form?.label ?? opts.label} />
          ),
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
            actions.keep(stale.current, merge ? merge.merged : actions.mine);
            done();
          },
        }),
      );
      return true;
    },
  };
}
