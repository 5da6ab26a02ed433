import { CreateFormPage } from '@/components/CreateFormPage.tsx';
import { useI18n } from '@/lib';
import { createNomination, refreshNominations } from './api/exportNominations.ts';
import { NominationFields, toFields } from './components/NominationFields.tsx';
import './i18n.ts';

/**
 * Create Export Nomination (spec §2 exports.create): every field of spec §3; agents and
 * operators choose the customer it belongs to. The corporate number is checked as it is typed
 * with the contract's rule, and again by the server.
 */
export default function ExportNominationCreatePage() {
  useI18n();
  return (
    <CreateFormPage
      i18n="exportNominations"
      testId="nomination"
      listPath="/exports/list"
      save={(v, customerId) => createNomination({ ...toFields(v), customerId })}
      refresh={refreshNominations}
      // The form is long: a field the server refused may be out of view.
      scrollToError
    >
      <NominationFields />
    </CreateFormPage>
  );
}
