import { type CallRequest, pickups as P } from '@console/contract';
import { call, callBlob, invalidateCall, saveBlob } from '@/lib';

/** The pickup calls (plain, as spec §7 marks them). Lists page with `usePagedQuery`. */
export const pickupListCall = P.pickupList;
export const messagesCall = P.pickupMessages;
export const slotsCall = P.timeSlots;
export const capacitiesCall = P.slotCapacities;

/** Silent: the create form shows field errors itself. */
export const bookPickup = (body: P.BookPickupRequest) => call(P.bookPickup, body, { silent: true });
export const cancelPickup = (id: number, reason: string) => call(P.cancelPickup, { id, reason });
export const suggestAbbr = (name: string) => call(P.shopAbbreviation, { name }, { silent: true });
export const setCapacity = (body: P.CapacityRow) => call(P.setSlotCapacity, body);

export async function downloadSlip(id: number) {
  const { blob, filename } = await callBlob(P.pickupSlip, { id });
  saveBlob(blob, filename);
}

export const refreshPickups = () =>
  Promise.all([invalidateCall(pickupListCall), invalidateCall(messagesCall), invalidateCall(slotsCall)]);

/** One pickup (its detail and the update page's starting values). */
export const pickupInfoCall = P.pickupInfo;
/** Silent: the update form shows field errors itself. */
export const updatePickup = (body: CallRequest<typeof P.updatePickup>) =>
  call(P.updatePickup, body, { silent: true }).then(async (r) => {
    await Promise.all([refreshPickups(), invalidateCall(pickupInfoCall)]);
    return r;
  });
