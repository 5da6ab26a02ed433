import { exportDeclarations as D } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/** The declaration calls (plain, not AES). The list pages with `usePagedQuery`. */
export const declarationListCall = D.exportDeclarations;
export type DeclarationFilters = D.ExportDeclarationFilters;
export type Layout = 'orderNo' | 'waybillNo';

/** Silent: the row editor shows the field messages itself. */
export const saveDeclaration = (orderId: number, productName: string, amountJpy: string) =>
  call(D.updateExportDeclaration, { orderId, productName, amountJpy }, { silent: true });

export const uploadDeclarations = (layout: Layout, file: File, commit: boolean) => {
  const form = new FormData();
  form.append('commit', commit ? 'true' : 'false');
  form.append('file', file);
  const def = layout === 'orderNo' ? D.updateExportDeclarationBatch : D.updateExportDeclarationBatch2;
  return callUpload(def, form, { silent: true });
};

/**
 * A commit's run on the server's job queue (issue 27), read until it ended: done, or failed with
 * its reason (thrown, as a refused call is). `alive` false stops reading (the dialog was closed).
 */
export async function declarationRunEnded(id: number, alive: () => boolean) {
  while (alive()) {
    const r = await call(D.exportDeclarationBatchRun, { id }, { silent: true });
    if (r.status === 'done') return r;
    if (r.status === 'failed') throw new Error(r.error ?? '');
    await new Promise((res) => setTimeout(res, 500));
  }
  return null;
}

export async function downloadDeclarationErrors(fileId: number) {
  const { blob, filename } = await callBlob(D.exportDeclarationErrors, { fileId });
  saveBlob(blob, filename);
}

const downloads = {
  orderNo: D.downloadExportDeclarations,
  waybillNo: D.downloadExportDeclarations2,
  customs: D.downloadDeclareAtCustoms,
} as const;
export async function downloadDeclarations(kind: keyof typeof downloads, filters: DeclarationFilters) {
  const { blob, filename } = await callBlob(downloads[kind], filters);
  saveBlob(blob, filename);
}

export const uploadPermit = (orderId: number, file: File) => {
  const form = new FormData();
  form.append('orderId', String(orderId));
  form.append('file', file);
  return callUpload(D.uploadPermit, form, { silent: true });
};

export async function downloadPermit(orderId: number) {
  const { blob, filename } = await callBlob(D.downloadPermitPdf, { orderId });
  saveBlob(blob, filename);
}
