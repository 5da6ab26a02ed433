/**
 * Times travel as UTC ISO strings; the console shows them at UTC+8 whatever the browser's
 * zone (spec §9 "displayed times add an 8-hour offset").
 */
const OFFSET_MS = 8 * 3600 * 1000;
const pad = (n: number) => String(n).padStart(2, '0');

export function formatTime(value: string | number | Date | null | undefined, withTime = true): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (Number.isNaN(ms)) return String(value);
  const d = new Date(ms + OFFSET_MS);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return withTime ? `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` : date;
}

export const formatDate = (value: string | number | Date | null | undefined) => formatTime(value, false);
