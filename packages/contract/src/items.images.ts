import { z } from 'zod';
import { defineCall } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { idOf } from './fields.ts';

// ---------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------

/** Item images: jpg/jpeg or png by content, at most this size and these dimensions. */
export const ITEM_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const ITEM_IMAGE_MAX_SIDE = 8000;
export const ITEM_IMAGE_MIN_SIDE = 16;

/**
 * Upload one image (multipart, one file in any field). The other form fields travel AES-sealed
 * like every call here: the form carries `data` and `iv` (the sealed `{ customerId? }`) and the
 * request the `aes: 1` header; the file bytes themselves are plain (TLS protects them; sealing
 * them would mean base64 in a JSON body past the 1 MB body limit). Answers the image id to put
 * in `imageId` of `item/create` / `item/update`.
 */
export const uploadItemImage = defineCall({
  path: 'item/image/upload',
  summary: 'Upload an item image (jpg/png checked by content, dimensions and size); answers its id.',
  aes: true,
  permission: 'item.list',
  kind: 'multipart',
  timeout: 0,
  request: z.object({ customerId: idOf.optional() }).strict(),
  response: z.object({
    imageId: z.number().int(),
    mime: z.enum(['image/jpeg', 'image/png']),
    width: z.number().int(),
    height: z.number().int(),
    size: z.number().int(),
  }),
});

/** The image bytes (request AES-sealed, answer the file). Only the owner, its agent and operators. */
export const itemImage = defineCall({
  path: 'item/image',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'An item image (only its customer, that customer’s agent and operators).',
  aes: true,
  permission: 'item.list',
  kind: 'blob',
  file: 'image',
  request: z.object({ imageId: idOf }).strict(),
  response: z.null(),
});
