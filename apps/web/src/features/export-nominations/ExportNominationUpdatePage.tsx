import { App, Button, Card, Empty, Space, Tag } from 'antd';
import { Form, showSaveError } from '@/components/form.tsx';
import { useNavigate, useSearchParams } from 'react-router';
import { useTabDirty } from '@/components/useTabDirty.ts';
import { useTabRecord } from '@/components/useTabRecord.ts';
import { t, useI18n, useRecordForm } from '@/lib';
import { refreshNominations, updateNomination, useNomination } from './api/exportNominations.ts';
import { NominationFields, toFields } from './components/NominationFields.tsx';
import './i18n.ts';
import { useStaleSave } from '@/components/stale-save';
import { useOneAtATime } from '@/lib/one-at-a-time.ts';

/** What the form shows, for the stale-save dialog. */
const SHOWN = ['nameJa', 'nameEn', 'corporateNumber', 'tel', 'addressEn', 'idMark', 'receiveEmail'];

/** Edit Export Nomination (spec §2 exports.update): the fields of spec §3; the customer stays. */
export default function ExportNominationUpdatePage() {
  useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const q = useNomination(id);
  useTabRecord(q.data?.nameEn);
  const [form] = Form.useForm();
  const stale = useStaleSave(q.data, { fields: SHOWN, label: (f) => t(`exportNominations.${f}`) });
  const edit = useRecordForm(form, id, q.data, (d) => d);
  useTabDirty(edit.dirty);
  const [save, submitting] = useOneAtATime(async (v: Record<string, any>) => {
    // The version the form's values were loaded from (set with them), not the latest read.
    const version: number | undefined = form.getFieldValue('version');
    try {
      await updateNomination({ ...toFields(v), id, version });
      edit.saved();
      void message.success(t('exportNominations.saved'));
      await refreshNominations();
      navigate('/exports/list');
    } catch (e) {
      const handled = await stale.resolve(e, version, {
        mine: form.getFieldsValue(true),
        values: (d) => d,
        reload: async (current) => {
          // Clean again: the next answer of the record's query fills the form (useRecordForm).
          edit.saved();
          form.resetFields();
          form.setFieldsValue(current);
          await refreshNominations();
        },
        // Mine where I changed, theirs elsewhere, from the version now.
        keep: (current, merged) => form.setFieldsValue({ ...merged, version: current.version }),
      });
      if (handled) return;
      showSaveError(form, e, { scroll: true });
    }
  });

  if (!id) return <Empty />;
  if (q.isError) return <Empty description={q.error.message} />;
  return (
    <Card
      loading={!q.data}
      title={t('exportNominations.edit')}
      extra={q.data && <Tag>{q.data.customerCode}</Tag>}
      data-testid="nomination-update"
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={save}
        onValuesChange={edit.touched}
        scrollToFirstError
        style={{ maxWidth: 900 }}
      >
        <NominationFields />
        <Space>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="nomination-submit">
            {t('exportNominations.save')}
          </Button>
          <Button onClick={() => navigate('/exports/list')}>{t('exportNominations.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
