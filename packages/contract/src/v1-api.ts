import { v1ActionCalls } from './v1-actions.ts';
import { v1Calls as coreCalls } from './v1.ts';
import { webhookCalls } from './v1-webhooks.ts';

/**
 * The v1 API as one namespace (`v1` of the contract's index): the calls of v1.ts and of the files
 * beside it (v1-actions.ts, v1-webhooks.ts). A file of its own because those files build on
 * v1.ts's `defineV1Call`, which v1.ts could not import back without a cycle.
 */
export * from './v1.ts';
export * from './v1-actions.ts';
export * from './v1-webhooks.ts';

/** Every v1 call: the registrar, the OpenAPI document and the tests walk it. */
export const v1Calls = [...coreCalls, ...v1ActionCalls, ...webhookCalls] as const;
