/**
 * The icons of the menu. A fixed map keeps @ant-design/icons tree-shaken. Server routes
 * name an icon only for top-level sections; the entries inside a section get theirs here by
 * route name, or the collapsed aside (which shows a section's entries) would be a column of
 * identical icons with nothing to tell them apart.
 */
import {
  AccountBookOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarsOutlined,
  BugOutlined,
  CalendarOutlined,
  CarOutlined,
  CloseCircleOutlined,
  CloudUploadOutlined,
  DiffOutlined,
  ContactsOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  ExclamationCircleOutlined,
  ExportOutlined,
  FileAddOutlined,
  FileProtectOutlined,
  FileSearchOutlined,
  FormOutlined,
  GlobalOutlined,
  GroupOutlined,
  HomeOutlined,
  IdcardOutlined,
  ImportOutlined,
  InboxOutlined,
  NumberOutlined,
  OrderedListOutlined,
  PlusSquareOutlined,
  PrinterOutlined,
  ProfileOutlined,
  RocketOutlined,
  SafetyCertificateOutlined,
  ScanOutlined,
  ScheduleOutlined,
  SearchOutlined,
  SendOutlined,
  ShopOutlined,
  ShoppingOutlined,
  SolutionOutlined,
  StopOutlined,
  TableOutlined,
  UnorderedListOutlined,
  UserSwitchOutlined,
  WarningOutlined,
  CheckSquareOutlined,
  ControlOutlined,
  LogoutOutlined,
  NodeExpandOutlined,
} from '@ant-design/icons';
import type { RouteName } from '@console/contract';
import type { ComponentType } from 'react';

/** Icons the server's routes may name. */
const icons: Record<string, ComponentType> = {
  AccountBookOutlined,
  AuditOutlined,
  BugOutlined,
  CarOutlined,
  ContactsOutlined,
  EnvironmentOutlined,
  ExportOutlined,
  FileProtectOutlined,
  HomeOutlined,
  InboxOutlined,
  PrinterOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
  SendOutlined,
  ShopOutlined,
  ShoppingOutlined,
  StopOutlined,
};

/** Entries of a section, which the server gives no icon. */
const entryIcons: Partial<Record<RouteName, ComponentType>> = {
  'exports.list': SolutionOutlined,
  'item.list': BarsOutlined,
  'item.noPassItem': ExclamationCircleOutlined,
  'order.batchList': GroupOutlined,
  'order.list': UnorderedListOutlined,
  'order.create': FileAddOutlined,
  'order.createImport': CloudUploadOutlined,
  'order.createImportUsa': GlobalOutlined,
  'order.createImportEms': RocketOutlined,
  'order.error': CloseCircleOutlined,
  'order.abnormal': WarningOutlined,
  'order.idCard': IdcardOutlined,
  'order.orderBatchSearch': FileSearchOutlined,
  'order.scan': ScanOutlined,
  'order.postCode': NumberOutlined,
  'order.batchSender': UserSwitchOutlined,
  'order.updates': DiffOutlined,
  'order.abnormalRules': ControlOutlined,
  'clearance.results': CheckSquareOutlined,
  'storageOrder.create': ImportOutlined,
  'storageOrder.list': DatabaseOutlined,
  'storageOrder.outSingle': LogoutOutlined,
  'storageOrder.outBatch': NodeExpandOutlined,
  'subscribeTake.create': CalendarOutlined,
  'subscribeTake.list': ScheduleOutlined,
  'subscribeTake.capacity': ControlOutlined,
  'selfSendTake.create': PlusSquareOutlined,
  'selfSendTake.list': OrderedListOutlined,
  'meituanOrder.create': FormOutlined,
  'meituanOrder.list': TableOutlined,
};

export function RouteIcon({ name, route }: { name?: string; route?: string }) {
  const Icon = (name && icons[name]) || (route && entryIcons[route as RouteName]) || AppstoreOutlined;
  return <Icon />;
}
