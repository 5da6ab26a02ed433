import { ApiError, t } from '@/lib';

type ConfirmKind = 'minorId' | 'multiplePricesPerJan' | 'crossBorderLimit';
type Modal = {
  confirm(o: {
    title: string;
    content: string;
    okText: string;
    cancelText: string;
    onOk: () => void;
    onCancel: () => void;
  }): unknown;
};

/**
 * Runs a write that may answer 409 with confirmations (a minor's ID, several prices per
 * JAN, the CNY 5,000 limit): asks the user for each and resends with them (spec §5).
 * Resolves with the result, or null when the user declined. 422 and others are rethrown.
 */
export async function withConfirmations<T>(
  modal: Modal,
  send: (confirm: ConfirmKind[]) => Promise<T>,
): Promise<T | null> {
  const given: ConfirmKind[] = [];
  for (let round = 0; round < 4; round++) {
    try {
      return await send([...given]);
    } catch (e) {
      const list =
        e instanceof ApiError && e.key === 'confirmationRequired'
          ? (e.data as { confirmations?: { kind: ConfirmKind; message: string }[] } | null)?.confirmations
          : undefined;
      if (!list?.length) throw e;
      for (const c of list) {
        const ok = await new Promise<boolean>((resolve) =>
          modal.confirm({
            title: t('orders.confirmTitle'),
            content: c.message,
            okText: t('orders.continue'),
            cancelText: t('orders.cancel'),
            onOk: () => resolve(true),
            onCancel: () => resolve(false),
          }),
        );
        if (!ok) return null;
        given.push(c.kind);
      }
    }
  }
  return null;
}
