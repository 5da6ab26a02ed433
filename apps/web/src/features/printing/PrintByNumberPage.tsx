import { type CallResponse, orders } from '@console/contract';
import { PrinterOutlined } from '@ant-design/icons';
import { App, Button, Card, Input, Space, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, t, useI18n } from '@/lib';
import { addNumbers, applySearch, type Line, printable, splitNumbers } from './by-number.ts';
import { AgentBar } from '@/components/printing/components.tsx';
import { usePrintOrders } from '@/components/printing/usePrinting.tsx';
import '@/components/printing/i18n.ts';

const COLORS: Record<Line['state'], string> = {
  looking: 'default',
  notFound: 'red',
  found: 'blue',
  refused: 'orange',
  printed: 'green',
  failed: 'red',
};

/**
 * Print Waybill By Order Number (spec §2): scan or type order numbers (Enter after each) or
 * paste many; each is looked up and shown found, refused with the reason, or not found; "Print
 * all" prints the found ones through the print agent and shows each order's result.
 */
export default function PrintByNumberPage() {
  useI18n();
  const { message } = App.useApp();
  const { printOrders } = usePrintOrders();
  const [text, setText] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [busy, setBusy] = useState(false);
  // The lines as they are now, for the lookups and prints that end after a later change.
  const current = useRef(lines);
  const update = (f: (l: Line[]) => Line[]) => {
    current.current = f(current.current);
    setLines(current.current);
  };

  const add = async (raw: string) => {
    const { lines: next, added } = addNumbers(current.current, splitNumbers(raw));
    setText('');
    if (!added.length) return;
    update(() => next);
    try {
      // One search for everything added (a paste of hundreds is one request, 500 numbers a page).
      const found: CallResponse<typeof orders.search>['list'] = [];
      for (let i = 0; i < added.length; i += 500) {
        const page = await call(orders.search, { offset: 0, limit: 500, numbers: added.slice(i, i + 500) });
        found.push(...page.list);
      }
      update((ls) => applySearch(ls, found));
    } catch {
      message.error(t('printing.lookupFailed'));
      update((ls) => ls.filter((l) => !(l.state === 'looking' && added.includes(l.number))));
    }
  };

  const printAll = async () => {
    const list = printable(current.current);
    if (!list.length) {
      message.warning(t('printing.nothingToPrint'));
      return;
    }
    setBusy(true);
    try {
      let todo = list;
      // A refusal refuses the whole download (nothing counted): mark those and print the rest.
      for (let round = 0; round < 3 && todo.length; round++) {
        // The repeat-print question is asked once, before the first round.
        const outcome = await printOrders(todo, { quiet: true, repeatAsked: round > 0 });
        if (outcome.kind === 'cancelled') return;
        if (outcome.kind === 'printed') {
          const done = new Set(outcome.ids);
          // A print job (more orders than one download) prints what it can and names the rest.
          const left = new Map(outcome.refused.map((r) => [r.orderNo, r.reason]));
          update((ls) =>
            ls.map((l): Line => {
              if (!('order' in l)) return l;
              if (done.has(l.order.id))
                return {
                  number: l.number,
                  state: 'printed',
                  order: { ...l.order, printCount: l.order.printCount + 1, status: 'printed' },
                  printer: outcome.printer,
                };
              const reason = left.get(l.order.orderNo);
              return reason && todo.some((o) => o.id === l.order.id)
                ? { number: l.number, state: 'refused', order: l.order, reason }
                : l;
            }),
          );
          message.success(t('printing.printedCount', { count: outcome.ids.length }));
          return;
        }
        if (outcome.kind === 'failed') {
          const ids = new Set(todo.map((o) => o.id));
          update((ls) =>
            ls.map((l) =>
              'order' in l && ids.has(l.order.id)
                ? { number: l.number, state: 'failed', order: l.order, reason: outcome.message }
                : l,
            ),
          );
          return;
        }
        const refused = new Map(outcome.refused.map((r) => [r.orderNo, r.reason]));
        update((ls) =>
          ls.map((l) =>
            'order' in l && refused.has(l.order.orderNo)
              ? { number: l.number, state: 'refused', order: l.order, reason: refused.get(l.order.orderNo)! }
              : l,
          ),
        );
        // An order gone meanwhile (no order number in the answer): none can be told apart, stop.
        if (refused.has(null)) return;
        todo = todo.filter((o) => !refused.has(o.orderNo));
      }
    } finally {
      setBusy(false);
    }
  };

  const count = printable(lines).length;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="print-by-number">
      <AgentBar />
      <Card size="small">
        <Space.Compact style={{ width: '100%' }}>
          <Input.TextArea
            autoFocus
            autoSize={{ minRows: 1, maxRows: 6 }}
            value={text}
            placeholder={t('printing.numbers')}
            onChange={(e) => setText(e.target.value)}
            onPressEnter={(e) => {
              // Enter adds (a scanner ends each code with Enter); Shift+Enter is a new line.
              if (e.shiftKey) return;
              e.preventDefault();
              void add(text);
            }}
            onPaste={(e) => {
              const pasted = e.clipboardData.getData('text');
              if (splitNumbers(pasted).length > 1) {
                e.preventDefault();
                void add(text + '\n' + pasted);
              }
            }}
            data-testid="print-numbers"
          />
          <Button onClick={() => void add(text)} data-testid="print-add">
            {t('printing.add')}
          </Button>
        </Space.Compact>
      </Card>
      <Space>
        <Button
          type="primary"
          icon={<PrinterOutlined />}
          loading={busy}
          disabled={!count}
          onClick={() => void printAll()}
          data-testid="print-all"
        >
          {`${t('printing.printAll')} (${count})`}
        </Button>
        <Button onClick={() => update(() => [])} disabled={!lines.length || busy} data-testid="print-clear">
          {t('printing.clear')}
        </Button>
      </Space>
      <Table<Line>
        size="small"
        rowKey="number"
        data-testid="print-lines"
        dataSource={lines}
        pagination={false}
        columns={[
          { key: 'number', title: t('printing.number'), dataIndex: 'number' },
          {
            key: 'orderNo',
            title: t('printing.orderNo'),
            render: (_: unknown, l) => ('order' in l ? l.order.orderNo : ''),
          },
          {
            key: 'printCount',
            title: t('printing.printCount'),
            render: (_: unknown, l) => ('order' in l ? l.order.printCount : ''),
          },
          {
            key: 'state',
            title: t('printing.result'),
            render: (_: unknown, l) => (
              <span data-testid={`print-line-${l.number}`}>
                <Tag color={COLORS[l.state]}>{stateText(l)}</Tag>
                {detail(l)}
              </span>
            ),
          },
          {
            key: 'remove',
            title: '',
            render: (_: unknown, l) => (
              <Button
                size="small"
                type="link"
                disabled={busy}
                onClick={() => update((ls) => ls.filter((x) => x.number !== l.number))}
              >
                {t('printing.remove')}
              </Button>
            ),
          },
        ]}
      />
    </Space>
  );
}

function stateText(l: Line): string {
  switch (l.state) {
    case 'looking':
      return '…';
    case 'notFound':
      return t('printing.notFound');
    case 'found':
      return t('printing.found');
    case 'refused':
      return t('printing.refused');
    case 'printed':
      return t('printing.printed');
    case 'failed':
      return t('printing.printFailed');
  }
}

function detail(l: Line): string {
  if (l.state === 'refused') return l.reason ?? t(`printing.${l.reasonKey}`);
  if (l.state === 'printed') return l.printer;
  if (l.state === 'failed') return l.reason;
  return '';
}
