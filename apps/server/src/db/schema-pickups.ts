import type { Generated } from 'kysely';

/** Table types of pickup appointments (migration 2026-11-24T1325-pickups-appointments). */
type Time = string;

/** The places of one slot of one region, the same every bookable day (operators set it). */
export interface PickupSlotCapacitiesTable {
  region: string;
  slot: string;
  capacity: number;
}
/** Places booked of one slot on one date: the counter the guarded UPDATE takes a place from. */
export interface PickupSlotBookingsTable {
  region: string;
  pickup_date: string;
  slot: string;
  booked: number;
}
export interface PickupsTable {
  id: Generated<number>;
  pickup_no: string;
  customer_id: number;
  region: string;
  /** YYYY-MM-DD, Japan time. */
  pickup_date: string;
  slot: string;
  box_no: string;
  shop_abbr: string;
  big_cartons: number;
  small_parcels: number;
  marker_prefix: string;
  /** booked | cancelled | pickedUp */
  status: string;
  cancel_reason: string | null;
  storage_order_id: number | null;
  created_by: number;
  created_at: Time;
  updated_at: Time;
}
export interface PickupMessagesTable {
  id: Generated<number>;
  pickup_id: number;
  customer_id: number;
  /** booked | changed | cancelled | pickedUp */
  kind: string;
  /** Parameters of the message (JSON text): date, slot, reason, storage number. */
  params: string;
  created_at: Time;
}

export interface PickupTables {
  pickup_slot_capacities: PickupSlotCapacitiesTable;
  pickup_slot_bookings: PickupSlotBookingsTable;
  pickups: PickupsTable;
  pickup_messages: PickupMessagesTable;
}
