import { ImportPanel } from './components/ImportPanel.tsx';

export default function CreateImportEmsPage() {
  return <ImportPanel kinds={['ems']} />;
}
