import { ImportPanel } from './components/ImportPanel.tsx';

export default function CreateImportUsaPage() {
  return <ImportPanel kinds={['usa', 'usaBoxC']} />;
}
