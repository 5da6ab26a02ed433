import { z } from 'zod';
import { i18nText } from './i18n.ts';

/**
 * The console's routes, which are also the permission names (ARCHITECTURE.md "Who sees what": "Permission
 * names are route names"). The server hands each user the subset their role holds
 * as `accessedRoutes`; the console builds its menu and element permissions from it.
 * `path: ''` is a menu item not built yet ("temporary menu"); an `http…` path opens
 * in a new tab.
 */
export interface RouteEntry {
  readonly name: string;
  readonly path: string;
  readonly title: { readonly zh: string; readonly en: string };
  readonly icon?: string;
  readonly parent?: string;
  readonly hidden?: boolean;
  /** Only these roles see it even when granted; absent = any role holding it. */
  readonly roles?: readonly string[];
}

const ADMIN_ROLE_NAME = 'admin-none';

const r = (
  name: string,
  path: string,
  zh: string,
  en: string,
  extra: Partial<Pick<RouteEntry, 'icon' | 'parent' | 'hidden' | 'roles'>> = {},
): RouteEntry => ({ name, path, title: { zh, en }, ...extra });

export const routeCatalogue = [
  r('index', '/index', '首页', 'Home', { icon: 'HomeOutlined' }),
  r('exports', '', '出口管理', 'Export Management', { icon: 'ExportOutlined' }),
  r('exports.list', '/exports/list', '出口抬头列表', 'Export Nominations', { parent: 'exports' }),
  r('exports.create', '/exports/create', '新增出口抬头', 'Create Export Nomination', {
    parent: 'exports',
    hidden: true,
  }),
  r('exports.update', '/exports/update', '修改出口抬头', 'Edit Export Nomination', { parent: 'exports', hidden: true }),
  r('exports.updateReceiveEmail', '/exports/updateReceiveEmail', '修改接收邮箱', 'Change Receive Email', {
    parent: 'exports',
    hidden: true,
  }),
  r('item', '', '商品管理', 'Item Management', { icon: 'ShoppingOutlined' }),
  r('item.list', '/item/list', '商品列表', 'Item List', { parent: 'item' }),
  r('item.noPassItem', '/item/noPassItem', '审核未通过商品列表', 'Failed To Pass Item List', { parent: 'item' }),
  r('item.create', '/item/create', '新增商品', 'Create Item', { parent: 'item', hidden: true }),
  r('item.info', '/item/info', '商品详情', 'Item Detail', { parent: 'item', hidden: true }),
  r('item.update', '/item/update', '修改商品', 'Edit Item', { parent: 'item', hidden: true }),
  r('unAdopt', '/unAdopt', '未采纳的调整', 'Unadopted Adjustments', { parent: 'item' }),
  // Approve, fail and adjust items: a permission, not a page.
  r('item.review', '', '商品审核', 'Review Items', {
    parent: 'item',
    hidden: true,
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('order', '', '订单管理', 'Order Management', { icon: 'ProfileOutlined' }),
  r('order.batchList', '/order/batchList', '批次列表', 'Batch List', { parent: 'order' }),
  r('order.list', '/order/list', '订单列表', 'Order List', { parent: 'order' }),
  r('order.create', '/order/create', '单独创建进口订单', 'Create Importer Order Alone', { parent: 'order' }),
  r('order.createImport', '/order/createImport', '批量创建进口订单', 'Create Importer Orders', { parent: 'order' }),
  r('order.createImportUsa', '/order/createImportUsa', '创建美国进口订单', 'Create USA Parcel Orders', {
    parent: 'order',
  }),
  r('order.createImportEms', '/order/createImportEms', '创建EMS进口订单', 'Create EMS Orders', { parent: 'order' }),
  r('order.error', '/order/error', '错误订单列表', 'Error Order List', { parent: 'order' }),
  r('order.abnormal', '/order/abnormal', '异常订单列表', 'Abnormal Order List', { parent: 'order' }),
  r('order.abnormalRules', '/order/abnormalRules', '异常规则', 'Abnormal Rules', {
    parent: 'order',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('order.idCard', '/order/idCard', '承诺书身份证', 'Promise Letter ID Card', { parent: 'order' }),
  r('order.orderBatchSearch', '/order/orderBatchSearch', '批量订单查询', 'Batch Orders Search', { parent: 'order' }),
  r('order.info', '/order/info', '订单详情', 'Order Detail', { parent: 'order', hidden: true }),
  r('order.update', '/order/update', '修改订单', 'Edit Order', { parent: 'order', hidden: true }),
  r('order.items', '/order/items', '订单商品', 'Order Items', { parent: 'order', hidden: true }),
  r('order.batchSender', '/order/batchSender', '批量修改发件人', 'Batch Sender', { parent: 'order' }),
  r('order.updates', '/order/updates', '批量修改订单', 'Batch Updates', { parent: 'order' }),
  r('clearance.results', '/clearance/results', '清关结果', 'Clearance Results', {
    parent: 'order',
    roles: ['operator', 'admin-none'],
  }),
  r('order.scan', '/order/scan', '扫描收货', 'Scan Receiving', { parent: 'order', roles: ['operator', 'admin-none'] }),
  r('order.postCode', '/order/postCode', '邮编查询', 'Postal Codes', { parent: 'order' }),
  r('order.updateLabelB', '/order/updateLabelB', '修改地址', 'Modify Address', { icon: 'EnvironmentOutlined' }),
  r('order.updateLabelB.create', '/order/updateLabelB/create', '上传修改地址', 'Upload Address Changes', {
    hidden: true,
  }),
  r('order.updateLabelB.info', '/order/updateLabelB/info', '修改地址详情', 'Address Batch Detail', { hidden: true }),
  r('order.exportDeclarations', '/order/exportDeclarations', '日本出口申报', 'Japanese Export Declaration', {
    icon: 'FileProtectOutlined',
  }),
  r('order.exportDeclarations.uploadPermit', '', '上传出口许可', 'Upload Export Permit', {
    parent: 'order.exportDeclarations',
    hidden: true,
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('order.interceptions', '/order/interceptions', '订单拦截', 'Order Interception', { icon: 'StopOutlined' }),
  r('order.jdAuthorize', '/order/jdAuthorize', '京东授权列表', 'JD Authorization List', {
    icon: 'SafetyCertificateOutlined',
  }),
  r('order.jdAuthorize.create', '/order/jdAuthorize/create', '新增京东授权', 'Create JD Authorization', {
    parent: 'order.jdAuthorize',
    hidden: true,
  }),
  r('order.jdAuthorize.update', '/order/jdAuthorize/update', '修改京东授权', 'Edit JD Authorization', {
    parent: 'order.jdAuthorize',
    hidden: true,
  }),
  r('storageOrder', '', '入库单管理', 'Inbound Order Management', { icon: 'InboxOutlined' }),
  r('storageOrder.create', '/storageOrder/create', '入库', 'Inbound', { parent: 'storageOrder' }),
  r('storageOrder.list', '/storageOrder/list', '批次列表', 'Batch List', { parent: 'storageOrder' }),
  r('storageOrder.info', '/storageOrder/info', '入库单详情', 'Storage Order Detail', {
    parent: 'storageOrder',
    hidden: true,
  }),
  r('storageOrder.item', '/storageOrder/item', '入库单订单', 'Storage Order Orders', {
    parent: 'storageOrder',
    hidden: true,
  }),
  // Re-weigh a received order (issue 26): a permission, not a page; the warehouse's move.
  r('storageOrder.reweigh', '', '复重', 'Re-weigh', {
    parent: 'storageOrder',
    hidden: true,
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('storageOrder.outSingle', '/storageOrder/outSingle', '单票出库', 'Out Single', {
    parent: 'storageOrder',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('storageOrder.outBatch', '/storageOrder/outBatch', '批量出库', 'Out Batch', {
    parent: 'storageOrder',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('subscribeTake', '', '预约取件', 'Subscribe Take', { icon: 'CarOutlined' }),
  r('subscribeTake.create', '/subscribeTake/create', '预约', 'Create', { parent: 'subscribeTake' }),
  r('subscribeTake.list', '/subscribeTake/list', '预约列表', 'List', { parent: 'subscribeTake' }),
  r('subscribeTake.update', '/subscribeTake/update', '修改预约', 'Edit Pickup', {
    parent: 'subscribeTake',
    hidden: true,
  }),
  r('subscribeTake.capacity', '/subscribeTake/capacity', '时段容量', 'Slot Capacity', {
    parent: 'subscribeTake',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('selfSendTake', '', '自寄管理', 'Self Delivery Management', { icon: 'SendOutlined' }),
  r('selfSendTake.create', '/selfSendTake/create', '新增自寄', 'Create', { parent: 'selfSendTake' }),
  r('selfSendTake.list', '/selfSendTake/list', '自寄列表', 'List', { parent: 'selfSendTake' }),
  r('meituanOrder', '', '美团预约单', 'Meituan Reservation Order', { icon: 'ShopOutlined' }),
  r('meituanOrder.create', '/meituanOrder/create', '新增预约单', 'Create', { parent: 'meituanOrder' }),
  r('meituanOrder.list', '/meituanOrder/list', '预约单列表', 'List', { parent: 'meituanOrder' }),
  r('meituanOrder.info', '/meituanOrder/info', '预约单详情', 'Reservation Order Detail', {
    parent: 'meituanOrder',
    hidden: true,
  }),
  r('meituanOrder.items', '/meituanOrder/items', '预约单商品', 'Reservation Order Items', {
    parent: 'meituanOrder',
    hidden: true,
  }),
  // Complete reservation orders: a permission, not a page.
  r('meituanOrder.complete', '', '完成预约单', 'Complete Reservation Orders', {
    hidden: true,
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('order.search', '/order/search', '订单查询', 'Order Search', { icon: 'SearchOutlined' }),
  r('printByOrderNumber', '/printByOrderNumber', '按订单号打印面单', 'Print Waybill By Order Number', {
    icon: 'PrinterOutlined',
  }),
  r('orderReview.list', '/orderReview/list', '订单审核', 'Order Review', { icon: 'AuditOutlined' }),
  r('orderReview.create', '/orderReview/create', '提交订单审核', 'Submit Orders For Review', {
    hidden: true,
  }),
  r('orderReview.info', '/orderReview/info', '订单审核详情', 'Order Review Detail', {
    hidden: true,
  }),
  r('orderReview.item', '/orderReview/item', '订单审核商品', 'Order Review Items', {
    hidden: true,
  }),
  // Complete a review with remarks: a permission, not a page.
  r('orderReview.complete', '', '完成订单审核', 'Complete Order Reviews', {
    hidden: true,
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('bill', '/bill', '账单', 'Bills', { icon: 'AccountBookOutlined' }),
  r('recipient.list', '/recipient/list', '收件人', 'Recipients', { icon: 'ContactsOutlined', hidden: true }),
  r('log', '/log', '前端日志', 'Frontend Log', { icon: 'BugOutlined', hidden: true }),
  r('seeMore', '/seeMore', '系统公告', 'System Announcements', { hidden: true }),
  // Administration (issue 17): operators and admins only; the role editor is the admin's alone.
  r('system', '', '系统管理', 'System', { icon: 'SettingOutlined', roles: ['operator', ADMIN_ROLE_NAME] }),
  r('system.customers', '/system/customers', '客户管理', 'Customers', {
    parent: 'system',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('system.users', '/system/users', '用户与代理', 'Users & Agents', {
    parent: 'system',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  // Live sessions of every account, one ended at a time (issue 28 #22).
  r('session.manage', '/session/manage', '会话管理', 'Sessions', {
    parent: 'system',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  r('system.roles', '/system/roles', '角色权限', 'Roles & Permissions', { parent: 'system', roles: [ADMIN_ROLE_NAME] }),
  r('system.audit', '/system/audit', '审计日志', 'Audit Log', {
    parent: 'system',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  // The rate cards' page is the permission of managing bills (issue 17): operators only.
  r('bill.manage', '/system/rateCards', '运费价卡', 'Rate Cards', {
    parent: 'system',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
  // Issue 39: making and revoking API keys (customers, agents; the admin sees every key). A
  // permission for now; the Developers pages come with the webhooks.
  // Issue 39: the Developers menu. Keys and webhook endpoints act for a customer (or an agent's
  // customers); the admin sees every key, staff have no tenant to give one.
  r('developer', '', '开发者', 'Developers', { icon: 'ApiOutlined', roles: ['customer', 'agent', ADMIN_ROLE_NAME] }),
  r('developer.apiKeys', '/developer/apiKeys', 'API 密钥', 'API Keys', {
    parent: 'developer',
    roles: ['customer', 'agent', ADMIN_ROLE_NAME],
  }),
  r('developer.webhooks', '/developer/webhooks', 'Webhook', 'Webhooks', {
    parent: 'developer',
    roles: ['customer', 'agent', ADMIN_ROLE_NAME],
  }),
  r('notice.manage', '/notice/manage', '发布公告', 'Publish Announcement', {
    parent: 'system',
    roles: ['operator', ADMIN_ROLE_NAME],
  }),
] as const satisfies readonly RouteEntry[];

export type RouteName = (typeof routeCatalogue)[number]['name'];
export const routeNames = routeCatalogue.map((x) => x.name) as RouteName[];
export const isRouteName = (s: string): s is RouteName => (routeNames as string[]).includes(s);

/** The role that sees every route (spec §6). */
export const ADMIN_ROLE = ADMIN_ROLE_NAME;
export const roles = ['customer', 'agent', 'operator', ADMIN_ROLE] as const;
export type Role = (typeof roles)[number];

export const accessedRoute = z.object({
  name: z.string(),
  path: z.string(),
  title: i18nText,
  icon: z.string().optional(),
  parent: z.string().optional(),
  hidden: z.boolean().optional(),
  roles: z.array(z.string()).optional(),
});
export type AccessedRoute = z.infer<typeof accessedRoute>;
