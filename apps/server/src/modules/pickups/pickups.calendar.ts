import holidayJp from '@holiday-jp/holiday_jp';
import { pickups } from '@console/contract';

const { PICKUP_CUTOFF_HOUR, PICKUP_MAX_DAYS_AHEAD } = pickups;

/**
 * Japan time for pickups: Asia/Tokyo has had no daylight saving since 1951, so it is UTC+9 all
 * year and plain arithmetic is exact. Holidays come from @holiday-jp/holiday_jp (the Cabinet
 * Office list, substitute holidays included), looked up by the YYYY-MM-DD key so no time zone
 * of the server can shift a day.
 */
const JST_MS = 9 * 3600_000;
const DAY_MS = 86_400_000;

/** Today's date in Japan. */
export const japanToday = (now: Date) => new Date(now.getTime() + JST_MS).toISOString().slice(0, 10);

/** `date` plus `n` days. */
export const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** When a date's bookings, changes and cancellations close: its same-day cutoff, Japan time. */
export const cutoffOf = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + PICKUP_CUTOFF_HOUR * 3600_000 - JST_MS);

const holidays = holidayJp.holidays as Record<string, { name: string; name_en: string } | undefined>;

export type DayState =
  | { open: true }
  | { open: false; reason: 'sunday' | 'cutoff' | 'tooFar' }
  | { open: false; reason: 'holiday'; holiday: string };

/** Whether a date takes bookings now. A real calendar date is assumed (see `realDate`). */
export function dayState(date: string, now: Date): DayState {
  if (now.getTime() >= cutoffOf(date).getTime()) return { open: false, reason: 'cutoff' };
  if (Date.parse(`${date}T00:00:00Z`) > Date.parse(`${japanToday(now)}T00:00:00Z`) + PICKUP_MAX_DAYS_AHEAD * DAY_MS)
    return { open: false, reason: 'tooFar' };
  if (new Date(`${date}T00:00:00Z`).getUTCDay() === 0) return { open: false, reason: 'sunday' };
  const h = holidays[date];
  if (h) return { open: false, reason: 'holiday', holiday: `${h.name} (${h.name_en})` };
  return { open: true };
}

/** YYYY-MM-DD that names a day of the calendar (not 2026-02-30). */
export const realDate = (date: string) => {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === date;
};
