import { useEffect } from 'react';
import { useTab } from '@/components/tab-context.ts';

/**
 * A page of one record (order detail, order update) names it in its tab, so two open
 * details read "订单详情 DM100030" and "订单详情 DM100031" instead of the same title twice.
 *
 *   useTabRecord(order?.orderNo);
 */
export function useTabRecord(label: string | null | undefined) {
  const { path, setTabLabel } = useTab();
  useEffect(() => {
    if (label) setTabLabel(path, label);
  }, [path, label, setTabLabel]);
}
