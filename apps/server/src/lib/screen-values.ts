import type { ApiLanguage } from '@console/contract';

/**
 * Values as the console shows them, for the workbooks the server builds: an exported sheet
 * is read beside the screen, so it says what the screen says (issue 11 #12).
 */

/** An ISO UTC time as the console shows it: UTC+8, `YYYY-MM-DD HH:mm:ss`, whatever the zone. */
export function chinaTime(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The console's "yes" of a flag column (an unset flag is an empty cell, as on screen). */
export function yesCell(flag: unknown, lang: ApiLanguage): string | null {
  return flag === 1 || flag === true ? (lang === 'en' ? 'Yes' : '是') : null;
}
