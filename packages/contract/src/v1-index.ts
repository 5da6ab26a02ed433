import { v1ActionCalls } from './v1-actions.ts';
import { v1Calls as ordersCalls } from './v1.ts';

/**
 * The v1 API as one namespace (`v1` of the contract): the definitions of v1.ts and of the files
 * beside it. A file of its own because those files build on v1.ts's `defineV1Call`, which v1.ts
 * could not import back without a cycle.
 */
export * from './v1.ts';
export * from './v1-actions.ts';

/** Every v1 call: the registrar, the OpenAPI document and the tests walk it. */
export const v1Calls = [...ordersCalls, ...v1ActionCalls] as const;
