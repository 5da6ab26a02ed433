import { CreateFormPage } from '@/components/CreateFormPage.tsx';
import { useI18n } from '@/lib';
import { createJd, refreshJd } from './api/jdAuthorize.ts';
import { JdFields, toFields } from './components/JdFields.tsx';
import './i18n.ts';

/**
 * Create JD Authorization (spec §2 order.jdAuthorize create): save the app; authorizing it is
 * the list's button. A typed app key and secret are lost with the tab: it asks first (issue 36
 * #18, #19), as every `CreateFormPage` does.
 */
export default function JdAuthorizeCreatePage() {
  useI18n();
  return (
    <CreateFormPage
      i18n="jdAuthorize"
      testId="jd"
      listPath="/order/jdAuthorize"
      save={(v, customerId) => createJd({ ...toFields(v), customerId })}
      refresh={refreshJd}
    >
      <JdFields />
    </CreateFormPage>
  );
}
