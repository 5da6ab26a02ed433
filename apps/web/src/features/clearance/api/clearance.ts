import { clearance } from '@console/contract';
import { callBlob, callUpload, saveBlob } from '@/lib';

/** The clearance results page's calls (operators). */
export const downloadTemplate = async (company: string) => {
  const { blob, filename } = await callBlob(clearance.clearanceTemplate, { company });
  saveBlob(blob, filename);
};
export const uploadResults = (company: string, file: File) => {
  const form = new FormData();
  form.append('company', company);
  form.append('file', file);
  return callUpload(clearance.clearanceUpload, form, { silent: true });
};
export const downloadErrors = async (fileId: number) => {
  const { blob, filename } = await callBlob(clearance.clearanceErrors, { fileId });
  saveBlob(blob, filename);
};
