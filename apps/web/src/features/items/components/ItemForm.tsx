import type { items } from '@console/contract';
import { Card, Col, Input, InputNumber, Row, Select, TreeSelect } from 'antd';
import { Form } from '@/components/form.tsx';
import { t, useI18n } from '@/lib';
import { useBrands } from '../api/useBrands.ts';
import { useCategories } from '../api/useCategories.ts';
import { useExportCategories } from '../api/useExportCategories.ts';
import { useParts } from '../api/useParts.ts';
import { useTaxes } from '../api/useTaxes.ts';
import { ImageUpload } from './ImageUpload.tsx';
import { isDecimal, janProblem } from './jan.ts';

type Node = items.CategoryNode;
export const categoryTree = (nodes: Node[], name: (n: Node) => string): object[] =>
  nodes.map((n) => ({ value: n.id, title: name(n), children: categoryTree(n.children, name) }));

const decimalRule = {
  validator: (_: unknown, v?: string) =>
    !v || isDecimal(String(v)) ? Promise.resolve() : Promise.reject(new Error(t('items.priceInvalid'))),
};

/**
 * Every field of spec §3 Item, for create, update and (without JAN, image and group) an
 * operator's adjustment. The JAN is checked as it is typed with the contract's rule.
 */
export function ItemFields({
  customerId,
  adjust = false,
}: {
  customerId?: number;
  /** The operator's adjustment: clearance data only (not the JAN, image or group), nothing required. */
  adjust?: boolean;
}) {
  const { localized } = useI18n();
  const parts = useParts();
  const brands = useBrands();
  const categories = useCategories();
  const exportCategories = useExportCategories();
  const taxes = useTaxes();
  const required = !adjust;
  const span = adjust ? 12 : 8;
  return (
    <>
      <Card size="small" title={t('items.basic')} style={{ marginBottom: 12 }}>
        <Row gutter={12}>
          {!adjust && (
            <Col span={span}>
              <Form.Item
                name="jan"
                label={t('items.jan')}
                validateFirst
                rules={[
                  { required: true, message: t('items.required', { label: t('items.jan') }) },
                  {
                    validator: (_, v?: string) => {
                      const p = janProblem(v);
                      return p ? Promise.reject(new Error(p)) : Promise.resolve();
                    },
                  },
                ]}
              >
                <Input inputMode="numeric" maxLength={13} autoComplete="off" data-testid="item-jan" />
              </Form.Item>
            </Col>
          )}
          <Col span={span}>
            <Form.Item
              name="nameZh"
              label={t('items.nameZh')}
              rules={[{ required, message: t('items.required', { label: t('items.nameZh') }) }]}
            >
              <Input maxLength={200} data-testid="item-nameZh" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="nameEn" label={t('items.nameEn')}>
              <Input maxLength={200} data-testid="item-nameEn" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="nameJa" label={t('items.nameJa')}>
              <Input maxLength={200} data-testid="item-nameJa" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="specs" label={t('items.specs')}>
              <Input maxLength={200} data-testid="item-specs" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="partId" label={t('items.part')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                loading={parts.isLoading}
                options={(parts.data ?? []).map((p) => ({ value: p.id, label: localized(p.name) }))}
                data-testid="item-part"
              />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="brandId" label={t('items.brand')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                loading={brands.isLoading}
                options={(brands.data ?? []).map((p) => ({ value: p.id, label: localized(p.name) }))}
                data-testid="item-brand"
              />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="categoryId"
              label={t('items.category')}
              dependencies={['newCategory']}
              // The server's rule too: a category, or the customer's words for a new one.
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, v) =>
                    adjust || v || String(getFieldValue('newCategory') ?? '').trim()
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('items.categoryOrNew'))),
                }),
              ]}
            >
              <TreeSelect
                allowClear
                showSearch
                treeNodeFilterProp="title"
                loading={categories.isLoading}
                treeData={categoryTree(categories.data ?? [], (n) => localized(n.name))}
                data-testid="item-category"
              />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="newCategory" label={t('items.newCategory')}>
              <Input maxLength={100} data-testid="item-newCategory" />
            </Form.Item>
          </Col>
          {!adjust && (
            <Col span={span}>
              <Form.Item name="group" label={t('items.group')}>
                <Input maxLength={64} data-testid="item-group" />
              </Form.Item>
            </Col>
          )}
        </Row>
      </Card>
      <Card size="small" title={t('items.clearance')} style={{ marginBottom: 12 }}>
        <Row gutter={12}>
          <Col span={span}>
            <Form.Item
              name="tariff"
              label={t('items.tariff')}
              normalize={(v?: string) => v?.replace(/[.\s]/g, '')}
              rules={[{ pattern: /^\d{6,13}$/, message: t('items.tariffInvalid') }]}
            >
              <Input maxLength={16} data-testid="item-tariff" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="netWeightG"
              label={t('items.netWeightG')}
              rules={[{ required, message: t('items.required', { label: t('items.netWeightG') }) }]}
            >
              <InputNumber
                min={1}
                max={1_000_000}
                precision={0}
                style={{ width: '100%' }}
                data-testid="item-netWeight"
              />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="origin"
              label={t('items.origin')}
              normalize={(v?: string) => v?.toUpperCase()}
              rules={[
                { required, message: t('items.required', { label: t('items.origin') }) },
                { pattern: /^[A-Z]{2}$/, message: t('items.originInvalid') },
              ]}
            >
              <Input maxLength={2} data-testid="item-origin" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="clearancePrice"
              label={`${t('items.clearancePrice')} (CNY)`}
              rules={[{ required, message: t('items.required', { label: t('items.clearancePrice') }) }, decimalRule]}
            >
              <Input inputMode="decimal" data-testid="item-clearancePrice" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item
              name="declarationPrice"
              label={`${t('items.declarationPrice')} (JPY)`}
              rules={[{ required, message: t('items.required', { label: t('items.declarationPrice') }) }, decimalRule]}
            >
              <Input inputMode="decimal" data-testid="item-declarationPrice" />
            </Form.Item>
          </Col>
          <Col span={span}>
            <Form.Item name="exportCategory" label={t('items.exportCategory')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                options={(exportCategories.data ?? []).map((c) => ({
                  value: c.code,
                  label: `${c.code} ${localized(c.name)}`,
                }))}
                data-testid="item-exportCategory"
              />
            </Form.Item>
          </Col>
          <Col span={adjust ? 24 : 16}>
            <Form.Item name="essentials" label={t('items.essentials')}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={1000} data-testid="item-essentials" />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card size="small" title={t('items.tax')} style={{ marginBottom: 12 }}>
        <Row gutter={12}>
          <Col span={adjust ? 24 : 12}>
            <Form.Item name="taxCode" label={t('items.taxCode')}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                loading={taxes.isLoading}
                options={(taxes.data ?? []).map((x) => ({
                  value: x.code,
                  label: `${x.code} ${localized(x.name)} · ${x.unit} · ${x.amount} · ${rateText(x.rate)}`,
                }))}
                data-testid="item-taxCode"
              />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      {!adjust && (
        <Card size="small" title={t('items.image')} style={{ marginBottom: 12 }}>
          <Form.Item name="imageId" noStyle>
            <ImageUpload customerId={customerId} />
          </Form.Item>
        </Card>
      )}
    </>
  );
}

/** "0.13" → "13%" (a decimal string, shown without a float round trip for the usual rates). */
export const rateText = (rate: string) => {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!m) return rate;
  const frac = (m[2] ?? '').padEnd(2, '0');
  const whole = String(Number(m[1]) * 100 + Number(frac.slice(0, 2)));
  const rest = frac.slice(2).replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''}%`;
};

/** The form's values → the call's clearance fields: empty texts as '', empty choices as null. */
export function toItemInput(v: Record<string, any>) {
  const s = (x: unknown) => (typeof x === 'string' ? x.trim() : '');
  const n = (x: unknown) => (x === undefined || x === '' ? null : (x as never));
  return {
    jan: s(v.jan),
    nameZh: s(v.nameZh),
    nameEn: s(v.nameEn),
    nameJa: s(v.nameJa),
    specs: s(v.specs),
    essentials: s(v.essentials),
    partId: n(v.partId),
    brandId: n(v.brandId),
    categoryId: n(v.categoryId),
    newCategory: s(v.newCategory),
    exportCategory: n(v.exportCategory),
    tariff: s(v.tariff) || null,
    netWeightG: Number(v.netWeightG),
    clearancePrice: s(v.clearancePrice),
    declarationPrice: s(v.declarationPrice),
    origin: s(v.origin).toUpperCase(),
    taxCode: n(v.taxCode),
    imageId: n(v.imageId),
    group: s(v.group),
  };
}

/** An item → the form's values. */
export const fromItem = (r: items.ItemRow) => ({
  /** Not a field: kept in the form's store, sent back on save (a stale one is refused, issue 28 #3). */
  version: r.version,
  jan: r.jan,
  nameZh: r.nameZh,
  nameEn: r.nameEn,
  nameJa: r.nameJa,
  specs: r.specs,
  essentials: r.essentials,
  partId: r.part?.id,
  brandId: r.brand?.id,
  categoryId: r.category?.id,
  newCategory: r.newCategory,
  exportCategory: r.exportCategory?.code,
  tariff: r.tariff ?? undefined,
  netWeightG: r.netWeightG,
  clearancePrice: r.clearancePrice,
  declarationPrice: r.declarationPrice,
  origin: r.origin,
  taxCode: r.tax?.code,
  imageId: r.imageId,
  group: r.group,
});
