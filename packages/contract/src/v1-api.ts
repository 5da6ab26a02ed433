import { v1Calls as coreCalls } from './v1.ts';
import { webhookCalls } from './v1-webhooks.ts';

/**
 * The v1 API as one namespace (`v1` of the contract's index): the calls of v1.ts and of the files
 * beside it (v1-webhooks.ts imports v1.ts's definitions, so v1.ts cannot list its calls itself).
 */
export * from './v1.ts';
export * from './v1-webhooks.ts';

/** Every v1 call: the registrar, the OpenAPI document and the tests walk it. */
export const v1Calls = [...coreCalls, ...webhookCalls] as const;
