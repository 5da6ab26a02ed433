import { orders, type CallRequest } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/** The calls of the order items, batch sender and updates pages (issue 11 #15). */
export const createItem = (body: CallRequest<typeof orders.itemCreate>) =>
  call(orders.itemCreate, body, { silent: true });
export const updateItem = (body: CallRequest<typeof orders.itemUpdate>) =>
  call(orders.itemUpdate, body, { silent: true });
export const deleteItem = (id: number) => call(orders.itemDelete, { id });

export type ChangeKind = 'batchSender' | 'updates';
const CALLS = {
  batchSender: {
    template: orders.batchSenderTemplate,
    preview: orders.batchSenderPreviewSheet,
    apply: orders.batchSenderApply,
    errors: orders.batchSenderErrors,
  },
  updates: {
    template: orders.updatesTemplate,
    preview: orders.updatesPreview,
    apply: orders.updatesApply,
    errors: orders.updatesErrors,
  },
} as const;

export const previewSender = (body: CallRequest<typeof orders.batchSenderPreview>) =>
  call(orders.batchSenderPreview, body, { silent: true });
export const previewSheet = (kind: ChangeKind, file: File, customerId?: number) => {
  const form = new FormData();
  if (customerId) form.append('customerId', String(customerId));
  form.append('file', file);
  return callUpload(CALLS[kind].preview, form, { silent: true });
};
export const applyPreview = (kind: ChangeKind, previewId: number) => call(CALLS[kind].apply, { previewId });
export const downloadTemplate = async (kind: ChangeKind) => {
  const { blob, filename } = await callBlob(CALLS[kind].template, {});
  saveBlob(blob, filename);
};
export const downloadRefused = async (kind: ChangeKind, fileId: number) => {
  const { blob, filename } = await callBlob(CALLS[kind].errors, { fileId });
  saveBlob(blob, filename);
};
