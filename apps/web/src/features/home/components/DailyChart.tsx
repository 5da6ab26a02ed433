/** Bars of the last 30 days in plain SVG: one chart does not justify a chart library's weight. */
import { useI18n } from '@/lib';

export function DailyChart({ days }: { days: { day: string; count: number }[] }) {
  const { t } = useI18n();
  const max = Math.max(1, ...days.map((d) => d.count));
  const w = 600;
  const h = 160;
  const gap = 4;
  const bw = days.length ? (w - gap * (days.length - 1)) / days.length : 0;
  return (
    <svg
      viewBox={`0 0 ${w} ${h + 20}`}
      className="daily-chart"
      role="img"
      aria-label={t('home.last30')}
      data-testid="daily-chart"
    >
      {days.map((d, i) => {
        const bh = Math.round((d.count / max) * h);
        return (
          <g key={d.day} data-day={d.day} data-count={d.count}>
            <title>{t('home.perDay', { day: d.day, count: d.count })}</title>
            <rect
              x={i * (bw + gap)}
              y={h - bh}
              width={bw}
              height={Math.max(bh, 1)}
              rx={2}
              className="daily-chart__bar"
            />
            {i % 5 === 0 && (
              <text x={i * (bw + gap)} y={h + 14} className="daily-chart__label">
                {d.day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
