import { storageOrders as S } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/** The storage and outbound calls (all AES: the client seals and opens them). Lists page with `usePagedQuery`. */
export const storageListCall = S.storageOrders;
export const storageLinesCall = S.storageOrderOrders;
export const originsCall = S.storageOriginSelect;
export const shippableCall = S.shippableOrders;
export const shipmentsCall = S.shipments;

/** One entry (typed or scanned); silent: the page shows each line's result itself. */
export const storeWaybills = (body: S.CreateStorageOrderRequest) => call(S.createStorageOrder, body, { silent: true });

/** An operator's re-weigh of a received order; silent: the form shows 422s on its fields. */
export const reweighOrder = (body: S.ReweighRequest) => call(S.reweighOrder, body, { silent: true });

export const storeExcel = (file: File, fields: { customerId?: number; origin: S.StorageOrigin }) => {
  const form = new FormData();
  form.append('file', file);
  return callUpload(S.createStorageOrderBatch, form, { silent: true }, fields);
};

export async function downloadStorageErrors(fileId: number) {
  const { blob, filename } = await callBlob(S.storageBatchErrors, { fileId });
  saveBlob(blob, filename);
}

export const shipOne = (code: string, shipmentId?: number) => call(S.outSingle, { code, shipmentId }, { silent: true });
export const shipMany = (orderIds: number[], waybillNos: string[]) =>
  call(S.outBatch, { orderIds, waybillNos }, { silent: true });
export const shipExcel = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return callUpload(S.outBatchUpload, form, { silent: true }, {});
};

export async function downloadManifest(shipmentId: number) {
  const { blob, filename } = await callBlob(S.shipmentManifest, { shipmentId });
  saveBlob(blob, filename);
}
