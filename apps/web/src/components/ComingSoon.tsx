import { Result } from 'antd';
import { useI18n } from '@/lib/i18n.ts';

/** A catalogue route whose module has no page yet. */
export default function ComingSoon() {
  const { t } = useI18n();
  return <Result status="info" title={t('frame.comingSoon.title')} subTitle={t('frame.comingSoon.body')} />;
}
