import { orders } from '@console/contract';
import { formatTime, t } from '@/lib';

/**
 * One tracking event as a line: when, what, where (and the office's note, on the detail). The
 * warehouse's own scans store a neutral code, worded here in the user's language (issue 36 #23:
 * the stored English word read "已发货 Warehouse" in the Chinese console); any other place is
 * shown as its client gave it.
 */
export function eventLine(e: { at: string; kind: string; location: string | null; note?: string | null }) {
  const place = e.location === orders.WAREHOUSE_LOCATION ? t('orders.locations.warehouse') : (e.location ?? '');
  return `${formatTime(e.at)}  ${t(`orders.kinds.${e.kind}`)}  ${place}${e.note ? ` ${e.note}` : ''}`;
}
