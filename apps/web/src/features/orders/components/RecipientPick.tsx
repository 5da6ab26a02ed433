import { recipients as R } from '@console/contract';
import { Button, Select, Space } from 'antd';
import { Form } from '@/components/form.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call, hasRoute, t, useCall } from '@/lib';

/**
 * Fill the recipient fields from the address book (recipient/list, recipient/info): the list
 * shows names with masked numbers; choosing one reads it whole into the form.
 */
export function RecipientPick({ customerId, disabled }: { customerId?: number; disabled?: boolean }) {
  const form = Form.useFormInstance();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const allowed = hasRoute('recipient.list');
  const list = useCall(
    R.recipientList,
    { limit: 50, keyword: keyword.trim() || undefined, customerId },
    { enabled: allowed && !disabled },
  );
  if (!allowed) return null;
  const choose = async (id: number) => {
    const r = await call(R.recipientInfo, { id });
    form.setFieldsValue({
      recipient: {
        name: r.name,
        idCard: r.idCard,
        phone: r.phone,
        email: r.email ?? undefined,
        province: r.province,
        city: r.city,
        district: r.district,
        street: r.street ?? undefined,
        address: r.address,
        postcode: r.postcode ?? undefined,
      },
    });
  };
  return (
    <Space style={{ marginBottom: 8 }}>
      <Select
        showSearch
        allowClear
        disabled={disabled}
        style={{ width: 360 }}
        placeholder={t('orders.pickRecipient')}
        filterOption={false}
        onSearch={setKeyword}
        onChange={(id?: number) => id && void choose(id)}
        loading={list.isFetching}
        aria-label={t('orders.pickRecipient')}
        data-testid="create-recipient-pick"
        options={(list.data?.list ?? []).map((r) => ({
          value: r.id,
          label: `${r.name} ${r.phone} ${r.province}${r.city}${r.district}`,
        }))}
      />
      <Button size="small" type="link" onClick={() => navigate('/recipient/list')}>
        {t('orders.addressBook')}
      </Button>
    </Space>
  );
}
