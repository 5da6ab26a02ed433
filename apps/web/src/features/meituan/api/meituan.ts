import { meituan as M } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/** The Meituan reservation order calls (plain JSON, multipart for the upload). */
export const meituanListCall = M.meituanOrders;
export const meituanInfoCall = M.meituanOrder;
export const meituanItemsCall = M.meituanOrderItems;
export const locationsCall = M.meituanLocations;
export const batchNumbersCall = M.meituanBatchNumbers;

export async function downloadTemplate() {
  const { blob, filename } = await callBlob(M.meituanTemplate, {});
  saveBlob(blob, filename);
}

/** Upload (or only check, `preview`) a filled template; silent: the page shows the rows' errors. */
export const uploadMeituan = (
  file: File,
  fields: { operationLocation: M.MeituanLocation; customerId?: number; preview: boolean },
) => {
  const form = new FormData();
  form.append('file', file);
  form.append('operationLocation', fields.operationLocation);
  form.append('preview', String(fields.preview));
  if (fields.customerId) form.append('customerId', String(fields.customerId));
  return callUpload(M.meituanCreate, form, { silent: true });
};

export async function downloadMeituanErrors(fileId: number) {
  const { blob, filename } = await callBlob(M.meituanCreateErrors, { fileId });
  saveBlob(blob, filename);
}

export async function exportMeituan(filters: Omit<M.MeituanListRequest, 'offset' | 'limit'>) {
  const { blob, filename } = await callBlob(M.meituanExport, filters);
  saveBlob(blob, filename);
}

export const completeMeituan = (ids: number[]) => call(M.meituanComplete, { ids });
