import { t } from '@/lib';

/** What the order edit form shows, for the stale-save dialog (components/stale-save). */
export const ORDER_FORM_FIELDS = [
  'recipient',
  'sender',
  'userRefNo',
  'insuredAmount',
  'remark',
  ...['jan', 'name', 'brand', 'spec', 'quantity', 'unitPrice', 'origin', 'hazardCode'].map((f) => `items.*.${f}`),
] as const;

/** An order field's path (`recipient.address`, `items.0.name`, `items`: the list) as the form labels it. */
export function orderFieldLabel(path: string): string {
  const [head, a, b] = path.split('.');
  if (head === 'items' && a === undefined) return t('orders.items');
  if (head === 'items') return `${t('orders.items')} ${Number(a) + 1} · ${t(`orders.${b}`)}`;
  if (head === 'recipient')
    return a === 'name' ? t('orders.recipient') : `${t('orders.recipient')} · ${t(`orders.${a}`)}`;
  if (head === 'sender')
    return t(a === 'name' ? 'orders.sender' : a === 'address' ? 'orders.senderAddress' : 'orders.senderPhone');
  return t(`orders.${head}`);
}
