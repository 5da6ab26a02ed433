import { AttentionPage } from './AttentionPage.tsx';

/** Error Order List. */
export default function ErrorOrdersPage() {
  return <AttentionPage kind="error" />;
}
