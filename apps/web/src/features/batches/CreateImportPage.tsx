import { ImportPanel } from './components/ImportPanel.tsx';

/** "Create importer orders": Japan parcel and the other channels' templates. */
export default function CreateImportPage() {
  return <ImportPanel kinds={['import', 'importBoxC', 'order', 'sg', 'au', 'uk', 'ph', 'th', 'usaDomestic']} />;
}
