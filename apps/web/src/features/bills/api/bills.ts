import { bills as B } from '@console/contract';
import { call, callBlob, invalidateCall, saveBlob } from '@/lib';

/** The bill calls. Lists page with `usePagedQuery`. */
export const billsCall = B.bills;
export const billLinesCall = B.billLines;
export const billMonthsCall = B.billMonths;

export async function downloadBill(id: number) {
  const { blob, filename } = await callBlob(B.downloadBill, { id });
  saveBlob(blob, filename);
}
export const issueBill = (id: number) => call(B.issueBill, { id });
export const markBillPaid = (id: number) => call(B.payBill, { id });
export const adjustBill = (body: B.AdjustRequest) => call(B.adjustBill, body);

export const rateCardsCall = B.rateCardList;
/** Saves a new version of a card (cards are never edited); the list refreshes. */
export async function saveRateCard(body: Parameters<typeof call<typeof B.saveRateCard>>[1]) {
  const out = await call(B.saveRateCard, body);
  await invalidateCall(B.rateCardList);
  return out;
}
