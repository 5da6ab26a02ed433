import { labelB as L } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/** The address-modification calls (plain, as spec §7 marks them). */
export const labelBListCall = L.labelBList;
export const labelBInfoCall = L.labelBInfo;
export const labelBProgressCall = L.labelBProgress;

/** The dry run: uploads the workbook, answers the draft batch with every row judged. */
export const promptAddresses = (file: File, customerId?: number) => {
  const form = new FormData();
  form.append('file', file);
  return callUpload(L.labelBPrompt, form, { silent: true }, { customerId });
};

export const confirmBatch = (id: number) => call(L.labelBCreate, { id }, { silent: true });
export const batchProgress = (id: number) => call(L.labelBProgress, { id }, { silent: true });

export async function downloadTemplate() {
  const { blob, filename } = await callBlob(L.labelBTemplate, {});
  saveBlob(blob, filename);
}

export async function exportBatch(id: number) {
  const { blob, filename } = await callBlob(L.labelBExport, { id });
  saveBlob(blob, filename);
}
