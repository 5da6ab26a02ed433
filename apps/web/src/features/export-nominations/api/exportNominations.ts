import { type CallRequest, exportNominations, reference } from '@console/contract';
import { call, callBlob, invalidateCall, saveBlob, useCall } from '@/lib';

/** The export nomination calls (all AES: the client seals and opens them). The list pages with `usePagedQuery`. */
export const nominationsCall = exportNominations.exportNominationList;

export const useNomination = (id: number) => useCall(exportNominations.exportNomination, { id }, { enabled: id > 0 });

/** Every view of nominations, the import pages' select (`exports`) included, reads the change. */
export async function refreshNominations() {
  await Promise.all([
    invalidateCall(exportNominations.exportNominationList),
    invalidateCall(exportNominations.exportNomination),
    invalidateCall(reference.exportsOptions),
  ]);
}

/** Create, update and the email change are silent: the form shows a 422 under its fields. */
export const createNomination = (body: CallRequest<typeof exportNominations.createExportNomination>) =>
  call(exportNominations.createExportNomination, body, { silent: true });
export const updateNomination = (body: CallRequest<typeof exportNominations.updateExportNomination>) =>
  call(exportNominations.updateExportNomination, body, { silent: true });
export const updateReceiveEmail = (id: number, receiveEmail: string) =>
  call(exportNominations.updateReceiveEmail, { id, receiveEmail }, { silent: true });
/** Silent: a refusal (in use) is shown in a dialog with its reason. */
export const deleteNomination = (id: number) =>
  call(exportNominations.deleteExportNomination, { id }, { silent: true });

export async function exportNominationsXlsx(
  filters: Omit<CallRequest<typeof exportNominations.exportExportNominations>, 'progressId'>,
  progressId: string,
) {
  const { blob, filename } = await callBlob(exportNominations.exportExportNominations, { ...filters, progressId });
  saveBlob(blob, filename);
}
