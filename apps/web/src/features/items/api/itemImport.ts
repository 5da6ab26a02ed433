import { items } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/**
 * The item import calls (all AES): the template, the upload (the customer sealed beside the
 * plain file, like the image upload), progress, confirm, and the error workbook.
 */
export const downloadItemTemplate = async () => {
  const { blob, filename } = await callBlob(items.itemImportTemplate, {});
  saveBlob(blob, filename);
};
/** Silent: the import dialog shows a refusal (422 on `file` or `customerId`) itself. */
export const uploadItemImport = (file: File, customerId?: number) => {
  const form = new FormData();
  form.append('file', file);
  return callUpload(items.uploadItemImport, form, { silent: true }, { customerId });
};
export const itemImportProgress = (id: number) => call(items.itemImportProgress, { id }, { silent: true });
export const confirmItemImport = (id: number) => call(items.confirmItemImport, { id }, { silent: true });
export const downloadItemImportErrors = async (id: number) => {
  const { blob, filename } = await callBlob(items.itemImportErrors, { id });
  saveBlob(blob, filename);
};
