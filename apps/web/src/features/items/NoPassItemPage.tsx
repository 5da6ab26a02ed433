import { useI18n } from '@/lib';
import { ItemListView } from './components/ItemListView.tsx';
import './i18n.ts';

/** Failed To Pass Item List (spec §2 item.noPassItem): failed items with their reason; fix → resubmit. */
export default function NoPassItemPage() {
  useI18n();
  return <ItemListView failedOnly />;
}
