import { type ApiLanguage, ErrorCode, items } from '@console/contract';
import { AppError } from '../../lib/errors.ts';
import type { Files } from '../../lib/files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { isStorageFull } from '../../lib/storage.ts';
import type { ItemsRepository } from './items.repository.ts';

const { ITEM_IMAGE_MAX_BYTES, ITEM_IMAGE_MAX_SIDE, ITEM_IMAGE_MIN_SIDE } = items;

/**
 * Item images are judged by their bytes, never by the file name or the browser's type:
 * the PNG or JPEG signature, then the dimensions read from the PNG IHDR chunk or the
 * JPEG start-of-frame segment. A renamed text file, an empty file, a truncated image
 * and an image too large in bytes or pixels are refused, each with its own message.
 */
export type ImageInfo = { mime: 'image/png' | 'image/jpeg'; ext: 'png' | 'jpg'; width: number; height: number };
export type ImageProblem = { key: string; params?: Record<string, string | number> };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(buf: Buffer): { width: number; height: number } | null {
  // Signature (8), then the first chunk must be IHDR: length (4) 'IHDR' (4) width (4) height (4).
  if (buf.length < 24 || buf.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** Start-of-frame markers carry the dimensions (baseline, progressive, lossless, arithmetic). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(buf: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1]!;
    // Fill bytes, and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      i++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame
    const length = buf.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (SOF.has(marker)) {
      if (i + 9 > buf.length) return null;
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

export function inspectImage(buf: Buffer): ImageInfo | ImageProblem {
  if (buf.length === 0) return { key: 'itemImageEmpty' };
  if (buf.length > ITEM_IMAGE_MAX_BYTES)
    return { key: 'itemImageTooLarge', params: { mb: ITEM_IMAGE_MAX_BYTES / 1024 / 1024 } };
  let info: ImageInfo;
  if (buf.length >= 8 && buf.subarray(0, 8).equals(PNG_SIGNATURE)) {
    const s = pngSize(buf);
    if (!s) return { key: 'itemImageUnreadable' };
    info = { mime: 'image/png', ext: 'png', ...s };
  } else if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    const s = jpegSize(buf);
    if (!s) return { key: 'itemImageUnreadable' };
    info = { mime: 'image/jpeg', ext: 'jpg', ...s };
  } else {
    return { key: 'itemImageType' };
  }
  const { width, height } = info;
  if (
    width < ITEM_IMAGE_MIN_SIDE ||
    height < ITEM_IMAGE_MIN_SIDE ||
    width > ITEM_IMAGE_MAX_SIDE ||
    height > ITEM_IMAGE_MAX_SIDE
  )
    return {
      key: 'itemImageDimensions',
      params: { width, height, min: ITEM_IMAGE_MIN_SIDE, max: ITEM_IMAGE_MAX_SIDE },
    };
  return info;
}

export const isImageProblem = (x: ImageInfo | ImageProblem): x is ImageProblem => 'key' in x;

/** Item images: one uploaded (checked above, stored through the files module) and one read back. */
export function createItemImages(repo: ItemsRepository, files: Files, now: () => string) {
  return {
    async uploadImage(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      customerIdAsked: number | undefined,
      file: { filename: string; data: Buffer } | undefined,
    ) {
      const customerId = customerFor(actor, scope, customerIdAsked);
      if (!file) throw AppError.field('file', 'fileRequired');
      const info = inspectImage(file.data);
      if (isImageProblem(info)) throw AppError.field('file', translate(lang, info.key, info.params));
      let imageId: number;
      try {
        imageId = await files.save({
          kind: 'itemImage',
          customer_id: customerId,
          owner_user_id: actor.userId,
          name: file.filename.slice(0, 200) || `item.${info.ext}`,
          mime: info.mime,
          created_at: now(),
          data: file.data,
          hint: `item.${info.ext}`,
        });
      } catch (e) {
        if (isStorageFull(e)) throw AppError.storageFull(e);
        throw e;
      }
      return { imageId, mime: info.mime, width: info.width, height: info.height, size: file.data.length };
    },

    /** The owner, its agent and operators see an image; anyone else gets the same 404 as for no image. */
    async image(scope: Scope, imageId: number) {
      const f = await repo.image(imageId);
      const allowed = f && (scope.all || (f.customer_id !== null && scope.customerIds.includes(f.customer_id)));
      if (!f || !allowed) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return {
        filename: `item-image-${f.id}.${f.mime === 'image/png' ? 'png' : 'jpg'}`,
        mime: f.mime,
        body: (await files.open(f.storage_key)).body,
      };
    },
  };
}
