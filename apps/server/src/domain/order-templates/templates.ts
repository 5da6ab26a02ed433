import type { batches } from '@console/contract';
import type { ColumnKey } from './template-columns.ts';

/** The template kinds: which columns each has, in which order, and the channel it fixes (columns: template-columns.ts). */

export interface TemplateDef {
  kind: batches.TemplateKind;
  title: { zh: string; en: string };
  /** A fixed channel, or null when the sheet (order template) or the page names it. */
  channel: string | null;
  columns: readonly ColumnKey[];
  /** Importable through a batch upload (the waybill template is for number look-ups). */
  importable: boolean;
}

const recipient: ColumnKey[] = [
  'recipientName',
  'recipientPhone',
  'recipientIdCard',
  'recipientProvince',
  'recipientCity',
  'recipientDistrict',
  'recipientAddress',
  'recipientPostcode',
];
const sender: ColumnKey[] = ['senderName', 'senderPhone', 'senderAddress'];
const items: ColumnKey[] = [
  'jan',
  'itemName',
  'brand',
  'spec',
  'quantity',
  'unitPrice',
  'currency',
  'origin',
  'hazardCode',
];
const parcel = (
  kind: batches.TemplateKind,
  zh: string,
  en: string,
  channel: string | null,
  boxes: boolean,
): TemplateDef => ({
  kind,
  title: { zh, en },
  channel,
  columns: [
    ...(kind === 'order' ? (['channel'] as ColumnKey[]) : []),
    'orderNo',
    ...(boxes ? (['boxNo'] as ColumnKey[]) : []),
    'userRefNo',
    'orderType',
    'clearanceCompany',
    ...recipient,
    ...sender,
    ...items,
    'remark',
  ],
  importable: true,
});

export const TEMPLATES: Record<batches.TemplateKind, TemplateDef> = {
  order: parcel('order', '订单模板', 'Order template', null, false),
  import: parcel('import', '日本包裹进口订单模板', 'Japan parcel import template', 'JP', true),
  importBoxC: parcel('importBoxC', '日本包裹 C 箱模板', 'Japan box-C template', 'JP', true),
  usaBoxC: parcel('usaBoxC', '美国包裹 C 箱模板', 'USA box-C template', 'USA', true),
  usa: parcel('usa', '美国包裹模板', 'USA parcel template', 'USA', true),
  usaDomestic: parcel('usaDomestic', '美国国内模板', 'US domestic template', 'USD', false),
  au: parcel('au', '澳大利亚包裹模板', 'Australia parcel template', 'AU', false),
  uk: parcel('uk', '英国包裹模板', 'UK parcel template', 'UK', false),
  ph: parcel('ph', '菲律宾包裹模板', 'Philippines parcel template', 'PH', false),
  th: parcel('th', '泰国包裹模板', 'Thailand parcel template', 'TH', false),
  sg: parcel('sg', '新加坡包裹模板', 'Singapore parcel template', 'SG', false),
  ems: parcel('ems', 'EMS 模板', 'EMS template', 'EMS', false),
  waybillNumber: {
    kind: 'waybillNumber',
    title: { zh: '运单号/订单号模板', en: 'Waybill / order number template' },
    channel: null,
    columns: ['orderNo', 'waybillNo'],
    importable: false,
  },
};

/** Which template an upload call uses for a channel. */
export function templateFor(
  call: 'create' | 'createImport' | 'createImportByBoxC' | 'createUsaBoxcImport' | 'createEmsImport',
  channel?: string,
): batches.TemplateKind | null {
  switch (call) {
    case 'create':
      return 'order';
    case 'createImportByBoxC':
      return 'importBoxC';
    case 'createUsaBoxcImport':
      return 'usaBoxC';
    case 'createEmsImport':
      return 'ems';
    case 'createImport':
      return (
        (
          {
            JP: 'import',
            USA: 'usa',
            USD: 'usaDomestic',
            AU: 'au',
            UK: 'uk',
            PH: 'ph',
            TH: 'th',
            SG: 'sg',
            EMS: 'ems',
          } as const
        )[channel as 'JP'] ?? null
      );
  }
}
