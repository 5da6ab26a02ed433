/** Login URL with the page to come back to (spec §4 guard: "redirect query"). */
export const loginPath = (redirect?: string) =>
  redirect && redirect !== '/' && !redirect.startsWith('/login')
    ? `/login?redirect=${encodeURIComponent(redirect)}`
    : '/login';

/** Only same-app absolute paths are accepted as redirect targets (no open redirect). */
export function safeRedirect(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/login')) return '/index';
  return raw;
}
