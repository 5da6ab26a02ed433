import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * The core schema: accounts and sessions, customers, reference data, orders and
 * their items, batches, tracking events, files and notices. Flags are 0/1
 * integers and money is integer minor units with the currency beside it, on both
 * engines alike.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  const id = (c: any) => c.primaryKey();

  await db.schema
    .createTable('users')
    .addColumn('id', t.id, id)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'integer')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('password_changed_at', t.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('customers')
    .addColumn('id', t.id, id)
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('agent_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('customers_agent').on('customers').column('agent_user_id').execute();

  await db.schema
    .createTable('role_permissions')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('route_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_permissions_pk', ['role', 'route_name'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', t.id, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('uuid', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('last_seen_at', t.time, (c) => c.notNull())
    .addColumn('ended_at', t.time)
    // logout | password_changed | disabled | operator
    .addColumn('end_reason', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  // One row per access token issued; only the SHA-256 of the token is kept.
  await db.schema
    .createTable('session_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id'))
    .addColumn('access_expires_at', t.time, (c) => c.notNull())
    .addColumn('refresh_expires_at', t.time, (c) => c.notNull())
    .addColumn('rotated_at', t.time)
    .execute();
  await db.schema.createIndex('session_tokens_session').on('session_tokens').column('session_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', t.id, id)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_key_at').on('login_failures').columns(['key', 'at']).execute();

  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_settings_pk', ['user_id', 'key'])
    .execute();

  // Reference data: product definitions that operators may later edit.
  await db.schema
    .createTable('channels')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('template_kind', 'text', (c) => c.notNull())
    .addColumn('has_boxes', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('clearance_companies')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('order_types')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('currencies')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name_zh', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .execute();

  // Waybill number segments per channel: numbers are handed out at commit, never twice.
  await db.schema
    .createTable('number_segments')
    .addColumn('id', t.id, id)
    .addColumn('channel_code', 'text', (c) => c.notNull().references('channels.code'))
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('suffix', 'text', (c) => c.notNull().defaultTo(''))
    // s10: EMS-style 8 digits + check digit; plain: zero-padded sequence
    .addColumn('scheme', 'text', (c) => c.notNull())
    .addColumn('next_seq', t.big, (c) => c.notNull())
    .addColumn('last_seq', t.big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('export_nominations')
    .addColumn('id', t.id, id)
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('name_ja', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('corporate_number', 'text', (c) => c.notNull())
    .addColumn('address_en', 'text', (c) => c.notNull())
    .addColumn('tel', 'text', (c) => c.notNull())
    .addColumn('id_mark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('receive_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('deleted_at', t.time)
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', t.id, id)
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('owner_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', t.big, (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('batches')
    .addColumn('id', t.id, id)
    .addColumn('batch_no', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('channel_code', 'text', (c) => c.notNull().references('channels.code'))
    .addColumn('template_kind', 'text', (c) => c.notNull())
    .addColumn('export_nomination_id', 'integer', (c) => c.references('export_nominations.id'))
    .addColumn('clearance_company_code', 'text')
    .addColumn('file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('error_file_id', 'integer', (c) => c.references('files.id'))
    // parsing | preview | committing | done | failed | cancelled
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('valid_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirm_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('order_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('receive_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('error_message', 'text')
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('batches_customer_created')
    .on('batches')
    .columns(['customer_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', t.id, id)
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('batch_id', 'integer', (c) => c.references('batches.id'))
    .addColumn('channel_code', 'text', (c) => c.notNull().references('channels.code'))
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('waybill_no', 'text', (c) => c.unique())
    .addColumn('split_waybill_no', 'text')
    .addColumn('system_no', 'text', (c) => c.notNull().unique())
    .addColumn('user_ref_no', 'text')
    .addColumn('box_no', 'text')
    .addColumn('export_nomination_id', 'integer', (c) => c.references('export_nominations.id'))
    .addColumn('number_segment_id', 'integer', (c) => c.references('number_segments.id'))
    .addColumn('order_type', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('clearance_company_code', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('intercepted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('released', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('print_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('print_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_reason', 'text')
    .addColumn('error_at', t.time)
    .addColumn('abnormal_rule', 'text')
    .addColumn('abnormal_reason', 'text')
    .addColumn('abnormal_at', t.time)
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('recipient_id_card', 'text', (c) => c.notNull())
    .addColumn('recipient_phone', 'text', (c) => c.notNull())
    .addColumn('recipient_email', 'text')
    .addColumn('recipient_country', 'text', (c) => c.notNull().defaultTo('CN'))
    .addColumn('recipient_province', 'text', (c) => c.notNull())
    .addColumn('recipient_city', 'text', (c) => c.notNull())
    .addColumn('recipient_district', 'text', (c) => c.notNull())
    .addColumn('recipient_street', 'text')
    .addColumn('recipient_address', 'text', (c) => c.notNull())
    .addColumn('recipient_postcode', 'text')
    .addColumn('sender_name', 'text')
    .addColumn('sender_address', 'text')
    .addColumn('sender_phone', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('total_amount', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('insured_amount', t.big, (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .addColumn('gns_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('push_s', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('push_price', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('whole_set', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addColumn('received_at', t.time)
    .addColumn('shipped_at', t.time)
    .addUniqueConstraint('orders_customer_order_no', ['customer_id', 'order_no'])
    .execute();
  for (const [name, cols] of [
    ['orders_customer_created', ['customer_id', 'created_at']],
    ['orders_created', ['created_at']],
    ['orders_batch', ['batch_id']],
    ['orders_status', ['status']],
    ['orders_error', ['error_at']],
    ['orders_abnormal', ['abnormal_at']],
    ['orders_user_ref', ['user_ref_no']],
    ['orders_split_waybill', ['split_waybill_no']],
    ['orders_recipient_phone', ['recipient_phone']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('orders')
      .columns([...cols])
      .execute();
  }

  await db.schema
    .createTable('order_items')
    .addColumn('id', t.id, id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('jan', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('brand', 'text')
    .addColumn('spec', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price', t.big, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('origin', 'text')
    .addColumn('hazard_code', 'text')
    .execute();
  await db.schema.createIndex('order_items_order').on('order_items').column('order_id').execute();
  await db.schema.createIndex('order_items_jan').on('order_items').column('jan').execute();

  await db.schema
    .createTable('tracking_events')
    .addColumn('id', t.id, id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    // created | printed | received | intercepted | shipped | released | ...
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', t.time, (c) => c.notNull())
    .addColumn('location', 'text')
    .addColumn('note', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('tracking_events_order').on('tracking_events').columns(['order_id', 'at']).execute();

  await db.schema
    .createTable('notices')
    .addColumn('id', t.id, id)
    .addColumn('title_zh', 'text', (c) => c.notNull())
    .addColumn('title_en', 'text', (c) => c.notNull())
    .addColumn('content_zh', 'text', (c) => c.notNull())
    .addColumn('content_en', 'text', (c) => c.notNull())
    .addColumn('must_agree', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', t.time, (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createTable('notice_reads')
    .addColumn('notice_id', 'integer', (c) => c.notNull().references('notices.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('read_at', t.time, (c) => c.notNull())
    .addColumn('agreed_at', t.time)
    .addPrimaryKeyConstraint('notice_reads_pk', ['notice_id', 'user_id'])
    .execute();

  await seedReferenceData(db);
}

async function seedReferenceData(db: Kysely<any>) {
  const ch = (
    code: string,
    zh: string,
    en: string,
    currency: string,
    origin: string,
    template_kind: string,
    has_boxes: number,
    sort: number,
  ) => ({ code, name_zh: zh, name_en: en, currency, origin, template_kind, has_boxes, sort });
  await db
    .insertInto('channels')
    .values([
      ch('JP', '日本包裹', 'Japan parcel', 'JPY', 'JP', 'import', 1, 1),
      ch('USA', '美国包裹', 'USA parcel', 'USD', 'US', 'usa', 1, 2),
      ch('EMS', 'EMS', 'EMS', 'JPY', 'JP', 'ems', 0, 3),
      ch('SG', '新加坡包裹', 'Singapore parcel', 'SGD', 'SG', 'sg', 0, 4),
      ch('AU', '澳大利亚包裹', 'Australia parcel', 'AUD', 'AU', 'au', 0, 5),
      ch('UK', '英国包裹', 'UK parcel', 'GBP', 'GB', 'uk', 0, 6),
      ch('PH', '菲律宾包裹', 'Philippines parcel', 'PHP', 'PH', 'ph', 0, 7),
      ch('TH', '泰国包裹', 'Thailand parcel', 'THB', 'TH', 'th', 0, 8),
      ch('USD', '美国国内', 'US domestic', 'USD', 'US', 'usaDomestic', 0, 9),
    ])
    .execute();
  await db
    .insertInto('clearance_companies')
    .values([
      { code: 'HZ-CB', name_zh: '杭州跨境清关', name_en: 'Hangzhou Cross-border Clearance' },
      { code: 'SH-PD', name_zh: '上海浦东清关', name_en: 'Shanghai Pudong Clearance' },
      { code: 'GZ-NS', name_zh: '广州南沙清关', name_en: 'Guangzhou Nansha Clearance' },
    ])
    .execute();
  await db
    .insertInto('order_types')
    .values([
      { code: 'normal', name_zh: '普通订单', name_en: 'Normal' },
      { code: 'bc', name_zh: '跨境电商（BC）', name_en: 'Cross-border e-commerce (BC)' },
      { code: 'personal', name_zh: '个人物品（CC）', name_en: 'Personal articles (CC)' },
    ])
    .execute();
  await db
    .insertInto('currencies')
    .values([
      { code: 'JPY', name_zh: '日元', name_en: 'Japanese yen', decimals: 0 },
      { code: 'CNY', name_zh: '人民币', name_en: 'Chinese yuan', decimals: 2 },
      { code: 'USD', name_zh: '美元', name_en: 'US dollar', decimals: 2 },
      { code: 'SGD', name_zh: '新加坡元', name_en: 'Singapore dollar', decimals: 2 },
      { code: 'AUD', name_zh: '澳元', name_en: 'Australian dollar', decimals: 2 },
      { code: 'GBP', name_zh: '英镑', name_en: 'Pound sterling', decimals: 2 },
      { code: 'PHP', name_zh: '菲律宾比索', name_en: 'Philippine peso', decimals: 2 },
      { code: 'THB', name_zh: '泰铢', name_en: 'Thai baht', decimals: 2 },
    ])
    .execute();
  // One shared segment per channel; EMS uses S10 numbers (EE########?JP).
  const segs = ['JP', 'USA', 'EMS', 'SG', 'AU', 'UK', 'PH', 'TH', 'USD'].map((code, i) => ({
    channel_code: code,
    name: `${code}-default`,
    prefix: code === 'EMS' ? 'EE' : `CBL${i + 1}`,
    suffix: code === 'EMS' ? 'JP' : '',
    scheme: code === 'EMS' ? 's10' : 'plain',
    next_seq: code === 'EMS' ? 10_000_000 : 1,
    last_seq: code === 'EMS' ? 99_999_999 : 9_999_999_999,
  }));
  await db.insertInto('number_segments').values(segs).execute();

  // Default grants (permissions are route names); admin-none needs none: it sees all.
  const common = [
    'index',
    'seeMore',
    'log',
    'exports',
    'exports.list',
    'exports.create',
    'item',
    'item.list',
    'item.noPassItem',
    'item.create',
    'order',
    'order.batchList',
    'order.list',
    'order.create',
    'order.createImport',
    'order.createImportUsa',
    'order.createImportEms',
    'order.error',
    'order.abnormal',
    'order.idCard',
    'order.orderBatchSearch',
    'order.info',
    'order.update',
    'order.postCode',
    'order.updateLabelB',
    'order.exportDeclarations',
    'order.interceptions',
    'order.jdAuthorize',
    'storageOrder',
    'storageOrder.create',
    'storageOrder.list',
    'subscribeTake',
    'subscribeTake.create',
    'subscribeTake.list',
    'selfSendTake',
    'selfSendTake.create',
    'selfSendTake.list',
    'meituanOrder',
    'meituanOrder.create',
    'meituanOrder.list',
    'order.search',
    'printByOrderNumber',
    'orderReview.list',
    'bill',
    'recipient.list',
  ];
  const operatorOnly = ['order.scan', 'notice.manage', 'session.manage'];
  const grants = [
    ...common.map((route_name) => ({ role: 'customer', route_name })),
    ...common.map((route_name) => ({ role: 'agent', route_name })),
    ...[...common, ...operatorOnly].map((route_name) => ({ role: 'operator', route_name })),
  ];
  await db.insertInto('role_permissions').values(grants).execute();
}

export async function down(): Promise<void> {
  throw new Error('The core migration cannot be reverted.');
}
