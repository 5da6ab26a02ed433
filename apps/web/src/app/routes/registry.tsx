/**
 * Module pages by route name. A module adds ONE line here (plus its feature folder and,
 * if new, its route in packages/contract/src/routes.ts): the menu comes from the server's
 * `accessedRoutes`, the tab, title, guard and 404 handling come from the shell.
 *
 *   'order.list': () => import('@/features/orders/OrderListPage.tsx'),
 *
 * The page module's default export is the page component. It is loaded lazily (its own
 * chunk) and kept alive in its tab. Catalogue routes without a page show "coming soon".
 */
import type { RouteName } from '@console/contract';
import type { ComponentType } from 'react';

export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

export const pages: Partial<Record<RouteName, PageLoader>> = {
  // Shell pages
  index: () => import('@/features/home/HomePage.tsx'),
  seeMore: () => import('@/features/notices/SeeMorePage.tsx'),
  'notice.manage': () => import('@/features/notices/NoticeManagePage.tsx'),
  log: () => import('@/features/log/LogPage.tsx'),

  // Module pages: one line each, keep alphabetical to avoid merge conflicts.
  bill: () => import('@/features/bills/BillPage.tsx'),
  'bill.manage': () => import('@/features/bills/RateCardsPage.tsx'),
  'clearance.results': () => import('@/features/clearance/ClearanceResultsPage.tsx'),
  'exports.create': () => import('@/features/export-nominations/ExportNominationCreatePage.tsx'),
  'exports.list': () => import('@/features/export-nominations/ExportNominationListPage.tsx'),
  'exports.update': () => import('@/features/export-nominations/ExportNominationUpdatePage.tsx'),
  'exports.updateReceiveEmail': () => import('@/features/export-nominations/ExportNominationReceiveEmailPage.tsx'),
  'item.create': () => import('@/features/items/ItemCreatePage.tsx'),
  'item.info': () => import('@/features/items/ItemInfoPage.tsx'),
  'item.list': () => import('@/features/items/ItemListPage.tsx'),
  'item.noPassItem': () => import('@/features/items/NoPassItemPage.tsx'),
  'item.update': () => import('@/features/items/ItemUpdatePage.tsx'),
  'meituanOrder.create': () => import('@/features/meituan/MeituanCreatePage.tsx'),
  'meituanOrder.info': () => import('@/features/meituan/MeituanInfoPage.tsx'),
  'meituanOrder.items': () => import('@/features/meituan/MeituanItemsPage.tsx'),
  'meituanOrder.list': () => import('@/features/meituan/MeituanListPage.tsx'),
  'order.abnormal': () => import('@/features/orders/AbnormalOrdersPage.tsx'),
  'order.abnormalRules': () => import('@/features/orders/AbnormalRulesPage.tsx'),
  'order.batchSender': () => import('@/features/orders/BatchSenderPage.tsx'),
  'order.batchList': () => import('@/features/batches/BatchListPage.tsx'),
  'order.createImport': () => import('@/features/batches/CreateImportPage.tsx'),
  'order.createImportEms': () => import('@/features/batches/CreateImportEmsPage.tsx'),
  'order.createImportUsa': () => import('@/features/batches/CreateImportUsaPage.tsx'),
  'order.create': () => import('@/features/orders/OrderCreatePage.tsx'),
  'order.error': () => import('@/features/orders/ErrorOrdersPage.tsx'),
  'order.exportDeclarations': () => import('@/features/export-declarations/ExportDeclarationsPage.tsx'),
  'order.idCard': () => import('@/features/orders/IdCardPage.tsx'),
  'order.info': () => import('@/features/orders/OrderDetailPage.tsx'),
  'order.interceptions': () => import('@/features/interceptions/InterceptionsPage.tsx'),
  'order.items': () => import('@/features/orders/OrderItemsPage.tsx'),
  'order.jdAuthorize': () => import('@/features/jd-authorize/JdAuthorizeListPage.tsx'),
  'order.jdAuthorize.create': () => import('@/features/jd-authorize/JdAuthorizeCreatePage.tsx'),
  'order.jdAuthorize.update': () => import('@/features/jd-authorize/JdAuthorizeUpdatePage.tsx'),
  'order.list': () => import('@/features/orders/OrderListPage.tsx'),
  'order.orderBatchSearch': () => import('@/features/orders/OrderBatchSearchPage.tsx'),
  'developer.apiKeys': () => import('@/features/developers/ApiKeysPage.tsx'),
  'developer.webhooks': () => import('@/features/developers/WebhooksPage.tsx'),
  'order.postCode': () => import('@/features/orders/PostCodePage.tsx'),
  'order.scan': () => import('@/features/orders/ScanPage.tsx'),
  'order.search': () => import('@/features/orders/OrderSearchPage.tsx'),
  'order.update': () => import('@/features/orders/OrderUpdatePage.tsx'),
  'order.updates': () => import('@/features/orders/OrderUpdatesPage.tsx'),
  'order.updateLabelB': () => import('@/features/label-b/LabelBListPage.tsx'),
  'order.updateLabelB.create': () => import('@/features/label-b/LabelBCreatePage.tsx'),
  'order.updateLabelB.info': () => import('@/features/label-b/LabelBInfoPage.tsx'),
  'orderReview.create': () => import('@/features/order-reviews/OrderReviewCreatePage.tsx'),
  'orderReview.info': () => import('@/features/order-reviews/OrderReviewInfoPage.tsx'),
  'orderReview.item': () => import('@/features/order-reviews/OrderReviewItemPage.tsx'),
  'orderReview.list': () => import('@/features/order-reviews/OrderReviewListPage.tsx'),
  'recipient.list': () => import('@/features/recipients/RecipientListPage.tsx'),
  'session.manage': () => import('@/features/admin/SessionsPage.tsx'),
  'selfSendTake.create': () => import('@/features/self-sends/SelfSendCreatePage.tsx'),
  'selfSendTake.list': () => import('@/features/self-sends/SelfSendListPage.tsx'),
  'system.audit': () => import('@/features/admin/AuditPage.tsx'),
  'system.customers': () => import('@/features/admin/CustomersPage.tsx'),
  'system.roles': () => import('@/features/admin/RolesPage.tsx'),
  'system.users': () => import('@/features/admin/UsersPage.tsx'),
  'storageOrder.create': () => import('@/features/storage-orders/StorageCreatePage.tsx'),
  'storageOrder.info': () => import('@/features/storage-orders/StorageInfoPage.tsx'),
  'storageOrder.item': () => import('@/features/storage-orders/StorageItemPage.tsx'),
  'storageOrder.list': () => import('@/features/storage-orders/StorageListPage.tsx'),
  'storageOrder.outBatch': () => import('@/features/storage-orders/OutBatchPage.tsx'),
  'storageOrder.outSingle': () => import('@/features/storage-orders/OutSinglePage.tsx'),
  'subscribeTake.capacity': () => import('@/features/pickups/PickupCapacityPage.tsx'),
  'subscribeTake.create': () => import('@/features/pickups/PickupCreatePage.tsx'),
  'subscribeTake.list': () => import('@/features/pickups/PickupListPage.tsx'),
  'subscribeTake.update': () => import('@/features/pickups/PickupUpdatePage.tsx'),
  printByOrderNumber: () => import('@/features/printing/PrintByNumberPage.tsx'),
  unAdopt: () => import('@/features/items/UnAdoptPage.tsx'),
};

/**
 * Ordering pages: unread notices that must be read and agreed are shown before these can
 * be used (spec §5). A module that creates orders adds its route name here.
 */
export const noticeGatedRoutes: ReadonlySet<string> = new Set<RouteName>([
  'order.create',
  'order.createImport',
  'order.createImportUsa',
  'order.createImportEms',
  'meituanOrder.create',
]);

/**
 * Pages of one record, opened with `?id=` from their list (issue 28, finding 9), and that list.
 * The search panel does not offer them, and opened without an id the shell shows what to do
 * (open the record from the list) instead of the page's empty state.
 */
export const recordPages: Partial<Record<RouteName, RouteName>> = {
  'exports.update': 'exports.list',
  'exports.updateReceiveEmail': 'exports.list',
  'item.info': 'item.list',
  'item.update': 'item.list',
  'meituanOrder.info': 'meituanOrder.list',
  'order.info': 'order.list',
  'order.items': 'order.list',
  'order.jdAuthorize.update': 'order.jdAuthorize',
  'order.update': 'order.list',
  'order.updateLabelB.info': 'order.updateLabelB',
  'orderReview.info': 'orderReview.list',
  'orderReview.item': 'orderReview.list',
  'storageOrder.info': 'storageOrder.list',
  'storageOrder.item': 'storageOrder.list',
  'subscribeTake.update': 'subscribeTake.list',
};
