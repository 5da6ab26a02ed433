import { batches, type CallRequest } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/** Uploads one workbook with the page's choices through the call of its template kind. */
export function uploadBatch(
  kind: Exclude<batches.TemplateKind, 'waybillNumber'>,
  file: File,
  fields: Record<string, string | undefined>,
) {
  const form = new FormData();
  const route = batches.uploadOf[kind];
  const def = [
    batches.create,
    batches.createImport,
    batches.createImportByBoxC,
    batches.createUsaBoxcImport,
    batches.createEmsImport,
  ].find((d) => d.path === route.call)!;
  for (const [k, v] of Object.entries({ ...fields, channel: route.channel ?? fields.channel }))
    if (v) form.append(k, v);
  form.append('file', file);
  return callUpload(def, form);
}
export const fetchProgress = (id: number) => call(batches.progress, { id });
export const confirmBatch = (id: number, confirmations: batches.ConfirmationKind[], skipInvalid = false) =>
  call(batches.confirm, { id, confirmations, skipInvalid });
/** Order List filtered by one batch (the list reads `?batchNo=`). */
export const ordersOfBatch = (batchNo: string) => `/order/list?batchNo=${encodeURIComponent(batchNo)}`;
/** The import page that shows a batch's preview again (`?batch=<id>`), by its template kind. */
export const previewPageOf = (b: { id: number; templateKind: string }) =>
  `${
    b.templateKind === 'usa' || b.templateKind === 'usaBoxC'
      ? '/order/createImportUsa'
      : b.templateKind === 'ems'
        ? '/order/createImportEms'
        : '/order/createImport'
  }?batch=${b.id}`;
export const downloadTemplate = async (kind: batches.TemplateKind) => {
  const { blob, filename } = await callBlob(batches.templates[kind], {});
  saveBlob(blob, filename);
};
export const downloadErrors = async (id: number) => {
  const { blob, filename } = await callBlob(batches.errorWorkbook, { id });
  saveBlob(blob, filename);
};
export const downloadBatchExcel = async (id: number, progressId?: string) => {
  const { blob, filename } = await callBlob(batches.downloadExcel, { id, progressId });
  saveBlob(blob, filename);
};
export const downloadByTime = async (period: 'lastWeek' | 'lastMonth' | 'lastThreeMonths', progressId?: string) => {
  const { blob, filename } = await callBlob(batches.downloadExcelByTime, { period, progressId });
  saveBlob(blob, filename);
};
export const deleteBatch = (id: number) => call(batches.remove, { id });
/** Batch List's filters (the paging fields are the paged table's). */
export type BatchFilters = Omit<CallRequest<typeof batches.batches>, 'offset' | 'limit' | 'order'>;
