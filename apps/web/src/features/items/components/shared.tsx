import type { items } from '@console/contract';
import { Image, Tag } from 'antd';
import { t } from '@/lib';
import { useItemImage } from '../api/useItemImage.ts';

const STATUS_COLOR: Record<items.ItemStatus, string> = { pending: 'gold', approved: 'green', failed: 'red' };

export function StatusTag({ status }: { status: items.ItemStatus }) {
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="item-status">
      {t(`items.statuses.${status}`)}
    </Tag>
  );
}

/** A small preview of an item image (fetched through the client: images are not public); click to enlarge. */
export function ItemThumb({ imageId, size = 40 }: { imageId: number | null; size?: number }) {
  const q = useItemImage(imageId);
  if (!imageId) return null;
  if (!q.data) return <div style={{ width: size, height: size, background: '#f5f5f5' }} />;
  return (
    <Image
      src={q.data}
      width={size}
      height={size}
      style={{ objectFit: 'contain' }}
      alt={t('items.image')}
      data-testid="item-thumb"
    />
  );
}

/** An adjusted field's label: the form's label for it ("Clearance price"), else its name. */
export const fieldLabel = (field: string) => {
  const key = `items.${field}`;
  const label = t(key);
  return label === key ? field : label;
};

/** A before/after value as text: ids and codes are shown as the server sent them, empty as "—". */
export const valueText = (v: unknown) =>
  v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
