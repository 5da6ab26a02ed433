import { orders } from '@console/contract';
import { App, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { attempt } from '@/components/mutation.ts';
import { invalidateCall, localized, t, useI18n } from '@/lib';
import { switchAbnormalRule, useAbnormalRules } from './api/orders.ts';
import './i18n.ts';

/**
 * Abnormal rules (operators, issue 13): each rule with its switch. A rule switched off is not
 * applied to orders created, changed or imported from then on; orders it already caught stay
 * in the abnormal list until resolved.
 */
export default function AbnormalRulesPage() {
  useI18n();
  const { message } = App.useApp();
  const rules = useAbnormalRules();
  const [busy, setBusy] = useState<string | null>(null);
  const toggle = async (code: string, enabled: boolean) => {
    setBusy(code);
    const r = await attempt(message, () => switchAbnormalRule(code, enabled));
    setBusy(null);
    if (r) {
      message.success(t(enabled ? 'orders.ruleOn' : 'orders.ruleOff', { rule: localized(r.name) }));
      await invalidateCall(orders.abnormalRules);
    }
  };
  return (
    <>
      <Typography.Paragraph type="secondary">{t('orders.rulesHint')}</Typography.Paragraph>
      <Table
        rowKey="code"
        size="small"
        pagination={false}
        loading={rules.isFetching}
        dataSource={rules.data ?? []}
        data-testid="abnormal-rules"
        columns={[
          { title: t('orders.ruleName'), render: (_, r) => localized(r.name) },
          { title: t('orders.ruleDescription'), render: (_, r) => localized(r.description) },
          {
            title: t('orders.ruleEnabled'),
            render: (_, r) => (
              <Switch
                checked={r.enabled}
                loading={busy === r.code}
                aria-label={localized(r.name)}
                onChange={(on) => void toggle(r.code, on)}
                data-testid={`rule-${r.code}`}
              />
            ),
          },
        ]}
      />
    </>
  );
}
