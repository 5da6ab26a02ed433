import { Card, Empty, Tooltip } from 'antd';
import { t } from '@/lib';

/**
 * The bills of the last 12 months as bars (plain SVG: one small chart does not justify a chart
 * library). Heights are relative to the largest month; the amounts stay the server's exact
 * decimal strings in the labels.
 */
export function MonthChart({ months }: { months: { period: string; totalCny: string }[] | undefined }) {
  const values = (months ?? []).map((m) => Number(m.totalCny));
  const max = Math.max(0, ...values);
  const W = 720;
  const H = 160;
  const bar = W / Math.max(1, values.length);
  return (
    <Card size="small" title={t('bills.chart')} data-testid="bill-chart">
      {!months ? null : max === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('bills.noCharges')} />
      ) : (
        <svg viewBox={`0 0 ${W} ${H + 36}`} width="100%" height={H + 36} role="img" aria-label={t('bills.chart')}>
          {months.map((m, i) => {
            const h = max ? Math.round((Number(m.totalCny) / max) * H) : 0;
            return (
              <Tooltip key={m.period} title={`${m.period}: CNY ${m.totalCny}`}>
                <g data-period={m.period} data-total={m.totalCny}>
                  <rect
                    x={i * bar + bar * 0.15}
                    y={H - h + 14}
                    width={bar * 0.7}
                    height={Math.max(h, 1)}
                    rx={3}
                    fill="var(--ant-color-primary, #F08633)"
                  />
                  {Number(m.totalCny) > 0 && (
                    <text x={i * bar + bar / 2} y={H - h + 10} textAnchor="middle" fontSize={10}>
                      {m.totalCny}
                    </text>
                  )}
                  <text x={i * bar + bar / 2} y={H + 30} textAnchor="middle" fontSize={11}>
                    {m.period.slice(2)}
                  </text>
                </g>
              </Tooltip>
            );
          })}
        </svg>
      )}
    </Card>
  );
}
