import { batches, orders, type CallRequest } from '@console/contract';
import { call, callBlob, callUpload, saveBlob, useCall } from '@/lib';

/** The orders feature's calls: fetchers and query hooks, typed from the contract. */
export type ListRequest = CallRequest<typeof orders.orderList>;
export const useOrderList = (body: ListRequest) => useCall(orders.orderList, body, { placeholderData: (prev) => prev });
export const useOrderDetail = (id: number) => useCall(orders.order, { id }, { enabled: id > 0 });
export const useAttention = (kind: 'error' | 'abnormal', body: CallRequest<typeof orders.errorOrders>) =>
  useCall(kind === 'error' ? orders.errorOrders : orders.abnormalOrders, body);
export const useAbnormalRules = () => useCall(orders.abnormalRules, {});
export const switchAbnormalRule = (code: string, enabled: boolean) =>
  call(orders.abnormalRuleSwitch, { code, enabled });
export const useIdCards = (body: CallRequest<typeof orders.idCards>) => useCall(orders.idCards, body);
export const exportOrders = async (body: CallRequest<typeof orders.downloadOrderExcel>, progressId?: string) => {
  const { blob, filename } = await callBlob(orders.downloadOrderExcel, { ...body, progressId });
  saveBlob(blob, filename);
};
export const batchSearch = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return callUpload(orders.orderBatchSearch, form);
};
/** The page's template: order numbers in A, waybill numbers in B (the search reads both by its header). */
export const downloadBatchSearchTemplate = async () => {
  const { blob, filename } = await callBlob(batches.templates.waybillNumber, {});
  saveBlob(blob, filename);
};
export const downloadBatchResult = async (fileId: number) => {
  const { blob, filename } = await callBlob(orders.orderBatchSearchResult, { fileId });
  saveBlob(blob, filename);
};
export const deleteOrders = (ids: number[]) => call(orders.orderDelete, { ids });
export const setFlag = (body: CallRequest<typeof orders.setFlag>) => call(orders.setFlag, body);
export const setPrintFlag = (ids: number[], printFlag: boolean) => call(orders.setOrderFlag, { ids, printFlag });
export const updateOrder = (body: CallRequest<typeof orders.orderUpdate>) =>
  call(orders.orderUpdate, body, { silent: true });
export const createOrder = (body: CallRequest<typeof orders.createImport>) =>
  call(orders.createImport, body, { silent: true });
export const resolveAddress = (text: string) => call(orders.resolveAddress, { text });
export const getSendAddress = (customerId?: number) => call(orders.getSendAddress, { customerId });
export const getItemByJan = (jan: string, customerId?: number) =>
  call(orders.getItemByJan, { jan, customerId }, { silent: true });
export const getOrderNumber = (customerId?: number) => call(orders.getOrderNumber, { customerId });
export const fixError = (body: CallRequest<typeof orders.errorUpdate>) =>
  call(orders.errorUpdate, body, { silent: true });
export const recheckErrors = (ids: number[]) => call(orders.errorUpdate2, { ids });
/** Operators only: clear errors as they are, with the reason recorded (422 on `note` without one). */
export const clearErrors = (ids: number[], note: string) =>
  call(orders.errorUpdate2, { ids, clear: true, note }, { silent: true });
export const resolveAbnormal = (body: CallRequest<typeof orders.abnormalUpdate>) => call(orders.abnormalUpdate, body);
export const uploadIdCard = (fields: Record<string, string | undefined>, file: File) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v) form.append(k, v);
  form.append('file', file);
  return callUpload(orders.idCardUpload, form);
};
export const idCardImage = (id: number, side: 'front' | 'back') =>
  callBlob(orders.idCardImage, { id, side }, { inline: true });
export const idCardTemplate = async () => {
  const { blob, filename } = await callBlob(orders.idCardTemplate, {});
  saveBlob(blob, filename);
};
/** The bulk mapping: the filled template (.xlsx) or a .zip of it and its images; 422 lists row errors. */
export const importIdCards = (file: File, customerId?: number) => {
  const form = new FormData();
  if (customerId) form.append('customerId', String(customerId));
  form.append('file', file);
  return callUpload(orders.idCardImport, form, { silent: true });
};
/** A refused bulk import's workbook of its failed rows (its id comes with the 422). */
export const downloadIdCardImportErrors = async (fileId: number) => {
  const { blob, filename } = await callBlob(orders.idCardImportErrors, { fileId });
  saveBlob(blob, filename);
};
export const scanOrder = (code: string) => call(orders.orderScan, { code });
export const lookupPostcode = (country: 'CN' | 'JP', code: string) =>
  call(orders.identifyPostalCode, { country, code });
export const track = (waybillNos: string) => call(orders.tracking, { waybillNos });
/** The box-C error fix (issue 28 #16): box and split waybill numbers; silent, the form shows field errors. */
export const fixBoxError = (body: CallRequest<typeof orders.errorBoxcUpdate>) =>
  call(orders.errorBoxcUpdate, body, { silent: true });
