import { AttentionPage } from './AttentionPage.tsx';

/** Abnormal Order List. */
export default function AbnormalOrdersPage() {
  return <AttentionPage kind="abnormal" />;
}
