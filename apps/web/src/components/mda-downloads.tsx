/**
 * The MDA downloads (issue 15): the customs-broker data for a Japanese export declaration as
 * workbooks and as the PD (commercial invoice and packing list) PDF. One menu for a Batch List
 * row (the batch variants) and one for the Order List toolbar (the chosen orders). Each
 * download runs through the page's `useDownloadProgress`, so its bar shows while it builds.
 */
import { mda } from '@console/contract';
import { App, Button, Dropdown } from 'antd';
import { callBlob, registerMessages, saveBlob, useI18n } from '@/lib';
import { attempt } from './mutation.ts';

registerMessages('mda', {
  'zh-chs': {
    menu: 'MDA 报关资料',
    orders: 'MDA 数据（每单一行）',
    lines: 'MDA 明细（格式 1）',
    category: 'MDA 明细（格式 2，按出口品目汇总）',
    pd: 'PD 发票装箱单（每单一份）',
    pdBatch: 'PD 发票装箱单（合并）',
  },
  en: {
    menu: 'MDA',
    orders: 'MDA data (one row per order)',
    lines: 'MDA lines (layout 1)',
    category: 'MDA lines (layout 2, per export category)',
    pd: 'PD invoice & packing list (per order)',
    pdBatch: 'PD invoice & packing list (consolidated)',
  },
});

type Runner = { run: (start: (progressId: string) => Promise<void>) => Promise<void>; busy: boolean };

async function fetchAndSave(def: Parameters<typeof callBlob>[0], body: unknown) {
  const { blob, filename } = await callBlob(def, body as never);
  saveBlob(blob, filename);
}

function MdaMenu(props: {
  items: [key: string, def: Parameters<typeof callBlob>[0]][];
  body: Record<string, unknown>;
  download: Runner;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const defs = new Map(props.items);
  return (
    <Dropdown
      disabled={props.disabled || props.download.busy}
      menu={{
        items: props.items.map(([key]) => ({ key, label: t(`mda.${key}`), 'data-testid': `${props.testId}-${key}` })),
        onClick: ({ key }) =>
          void attempt(message, () =>
            props.download.run((progressId) => fetchAndSave(defs.get(key)!, { ...props.body, progressId })),
          ),
      }}
    >
      <Button size="small" data-testid={props.testId} loading={props.download.busy}>
        {t('mda.menu')}
      </Button>
    </Dropdown>
  );
}

/** A Batch List row's MDA menu. */
export function MdaBatchMenu(props: { batchId: number; testId: string; download: Runner }) {
  return (
    <MdaMenu
      items={[
        ['orders', mda.downloadOrderMDABatch],
        ['lines', mda.downloadMDABatch],
        ['category', mda.downloadMDABatch2],
        ['pd', mda.downloadMDA2PD],
        ['pdBatch', mda.downloadMDA2PDBatch],
      ]}
      body={{ id: props.batchId }}
      download={props.download}
      testId={props.testId}
    />
  );
}

/** The Order List toolbar's MDA menu for the chosen orders. */
export function MdaOrdersMenu(props: { ids: number[]; download: Runner }) {
  return (
    <MdaMenu
      items={[
        ['orders', mda.downloadOrderMDABatchByOrder],
        ['pd', mda.downloadMDA2PDByOrder],
        ['pdBatch', mda.downloadMDA2PDBatchByOrder],
      ]}
      body={{ ids: props.ids }}
      download={props.download}
      disabled={!props.ids.length}
      testId="list-mda"
    />
  );
}
