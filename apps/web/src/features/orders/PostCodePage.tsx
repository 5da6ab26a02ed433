import { Alert, Button, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { t, useI18n } from '@/lib';
import { lookupPostcode } from './api/orders.ts';
import './i18n.ts';

/** PostCode: look up and check Chinese and Japanese postal codes. */
export default function PostCodePage() {
  useI18n();
  const [country, setCountry] = useState<'CN' | 'JP'>('JP');
  const [code, setCode] = useState('');
  const [r, setR] = useState<Awaited<ReturnType<typeof lookupPostcode>> | null>(null);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space.Compact>
        <Select
          value={country}
          onChange={(c) => (setCountry(c), setR(null))}
          style={{ width: 90 }}
          aria-label={t('orders.postcodeCountry')}
          data-testid="postcode-country"
          options={[
            { value: 'JP', label: 'JP' },
            { value: 'CN', label: 'CN' },
          ]}
        />
        <Input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={async () => setR(await lookupPostcode(country, code))}
          placeholder={t('orders.postcodeHint')}
          aria-label={t('orders.postcodeHint')}
          style={{ width: 300 }}
          data-testid="postcode-input"
        />
        <Button
          type="primary"
          disabled={!code.trim()}
          onClick={async () => setR(await lookupPostcode(country, code))}
          data-testid="postcode-lookup"
        >
          {t('orders.lookup')}
        </Button>
      </Space.Compact>
      {r && (
        <>
          <Space>
            {/* A Chinese code can only be plausible (no dataset): never shown as simply "valid". */}
            <Tag color={!r.valid ? 'red' : r.verified ? 'green' : 'orange'} data-testid="postcode-valid">
              {!r.valid ? t('orders.invalid') : r.verified ? t('orders.valid') : t('orders.postcodePlausible')}
            </Tag>
            <span data-testid="postcode-code">{r.code}</span>
          </Space>
          {r.note && <Alert type={r.valid ? 'info' : 'warning'} message={r.note} data-testid="postcode-note" />}
          <Table
            size="small"
            rowKey={(p) => p.province + p.city + p.town}
            pagination={false}
            data-testid="postcode-places"
            locale={{ emptyText: t('orders.noPlaces') }}
            dataSource={r.places}
            columns={[
              { title: t('orders.province'), dataIndex: 'province' },
              { title: t('orders.city'), dataIndex: 'city' },
              { title: t('orders.district'), dataIndex: 'town' },
            ]}
          />
        </>
      )}
    </Space>
  );
}
