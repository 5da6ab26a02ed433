import { items } from '@console/contract';
import { callUpload } from '@/lib';

/**
 * `item/image/upload`: one jpg/png (checked by content on the server); silent, the upload
 * control shows the refusal itself. The customer travels sealed beside the file (AES call).
 */
export const uploadItemImage = (file: File, customerId?: number) => {
  const form = new FormData();
  form.append('file', file);
  return callUpload(items.uploadItemImage, form, { silent: true }, { customerId });
};
