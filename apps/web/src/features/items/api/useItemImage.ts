import { items } from '@console/contract';
import { useQuery } from '@tanstack/react-query';
import { callBlob, callKey } from '@/lib';

/**
 * `item/image`: the bytes come through the client (bearer token, AES-sealed request), not a
 * plain <img src>, because images are served only to the owner, its agent and operators. The
 * object URLs are kept per image id (an image never changes: a new one gets a new id) and the
 * oldest are let go beyond a bound, so a long session of paging does not hold every image.
 */
const urls = new Map<number, string>();
const MAX_URLS = 300;

async function imageUrl(imageId: number): Promise<string> {
  const hit = urls.get(imageId);
  if (hit) return hit;
  const { blob } = await callBlob(items.itemImage, { imageId }, { silent: true, inline: true });
  const url = URL.createObjectURL(blob);
  urls.set(imageId, url);
  if (urls.size > MAX_URLS) {
    const [oldest, old] = urls.entries().next().value as [number, string];
    urls.delete(oldest);
    URL.revokeObjectURL(old);
  }
  return url;
}

export const useItemImage = (imageId: number | null | undefined) =>
  useQuery({
    queryKey: callKey(items.itemImage, { imageId: imageId ?? 0 }),
    queryFn: () => imageUrl(imageId!),
    enabled: !!imageId,
    staleTime: Infinity,
  });
