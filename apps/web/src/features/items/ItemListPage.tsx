import { useI18n } from '@/lib';
import { ItemListView } from './components/ItemListView.tsx';
import './i18n.ts';

/** Item List (spec §2 item.list): the catalogue with server-side filters, sort and paging. */
export default function ItemListPage() {
  useI18n();
  return <ItemListView />;
}
