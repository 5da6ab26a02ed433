/**
 * Error and abnormal order badges (spec §2, §6): shown and loaded only with the permission
 * of the same name; counts are `data.total` of a one-row page; display capped at 999.
 */
import { orders, type RouteName } from '@console/contract';
import { ExceptionOutlined, WarningOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { usePermission } from '@/components/Permission.tsx';
import { useI18n } from '@/lib/i18n.ts';
import { useCall } from '@/lib/query.ts';
import { onePage } from './badgeCalls.ts';
import { useOpenRoute } from './useMenuClick.ts';

export const BADGE_MAX = 999;
const REFRESH_MS = 60_000;

function CountBadge({
  route,
  def,
  label,
  icon,
  testId,
}: {
  route: RouteName;
  def: typeof orders.errorOrders | typeof orders.abnormalOrders;
  label: string;
  icon: React.ReactNode;
  testId: string;
}) {
  const allowed = usePermission(route);
  const open = useOpenRoute();
  const { data } = useCall(def, onePage, { enabled: allowed, refetchInterval: REFRESH_MS, silent: true });
  if (!allowed) return null;
  return (
    <CountBadgeView total={data?.total ?? 0} label={label} icon={icon} testId={testId} onClick={() => open(route)} />
  );
}

/** The badge as shown, apart from loading it: what the spec's display cap is tested on. */
export function CountBadgeView({
  total,
  label,
  icon,
  testId,
  onClick,
}: {
  total: number;
  label: string;
  icon: React.ReactNode;
  testId: string;
  onClick: () => void;
}) {
  return (
    <Tooltip title={label}>
      <Badge
        count={total}
        overflowCount={BADGE_MAX}
        size="small"
        offset={[-4, 4]}
        data-testid={testId}
        data-count={total}
      >
        <Button type="text" icon={icon} aria-label={label} onClick={onClick} className="header-action" />
      </Badge>
    </Tooltip>
  );
}

export function OrderBadges() {
  const { t } = useI18n();
  return (
    <>
      <CountBadge
        route="order.error"
        def={orders.errorOrders}
        label={t('frame.header.errorOrders')}
        icon={<ExceptionOutlined />}
        testId="badge-error"
      />
      <CountBadge
        route="order.abnormal"
        def={orders.abnormalOrders}
        label={t('frame.header.abnormalOrders')}
        icon={<WarningOutlined />}
        testId="badge-abnormal"
      />
    </>
  );
}
