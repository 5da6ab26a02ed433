/** The icons a server route may name. A fixed map keeps @ant-design/icons tree-shaken. */
import {
  AccountBookOutlined,
  AppstoreOutlined,
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
} from '@ant-design/icons';
import type { ComponentType } from 'react';

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

export function RouteIcon({ name }: { name?: string }) {
  const Icon = (name && icons[name]) || AppstoreOutlined;
  return <Icon />;
}
