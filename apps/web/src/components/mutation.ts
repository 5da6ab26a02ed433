import { ApiError, errorText } from '@/lib';

type Toast = { error(content: string): unknown };

/**
 * Runs a write from a button or a confirm and never lets it reject into the void: the HTTP
 * client already shows coded errors (409 "order locked", 500 with its number, no network),
 * so only what it leaves to pages (422 field errors, silent calls) is shown here. Resolves
 * with the result, or undefined when the write failed.
 */
export async function attempt<T>(
  toast: Toast,
  send: () => Promise<T>,
  opts: { silent?: boolean } = {},
): Promise<T | undefined> {
  try {
    return await send();
  } catch (e) {
    const shownByClient = e instanceof ApiError ? e.code !== 422 && !opts.silent : !opts.silent;
    if (!shownByClient) toast.error(errorText(e));
    return undefined;
  }
}
