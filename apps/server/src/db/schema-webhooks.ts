import type { Generated } from 'kysely';

type Time = string;

/** Tables of webhooks (modules/webhooks, domain/order-events.ts, migration 2026-12-07T0200). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  customer_id: number;
  url: string;
  description: Generated<string>;
  /** JSON list of event types. */
  event_types: string;
  active: Generated<number>;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_until: Time | null;
  failing_since: Time | null;
  disabled_at: Time | null;
  created_by: number;
  created_at: Time;
  updated_at: Time;
  deleted_at: Time | null;
}
export interface WebhookEventsTable {
  id: string;
  customer_id: number;
  order_id: number | null;
  seq: number | null;
  type: string;
  /** The JSON body sent, exactly: signed as stored. */
  payload: string;
  occurred_at: Time;
  dispatched_at: Time | null;
}
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: number;
  customer_id: number;
  /** pending | succeeded | failed | cancelled */
  status: string;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_attempt_at: Time | null;
  created_at: Time;
}
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  at: Time;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: Generated<string>;
  error: string | null;
}
export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
