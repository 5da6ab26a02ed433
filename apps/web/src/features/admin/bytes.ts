/**
 * A byte count as people read it (binary units, one decimal, none when whole): `0 B`, `8 KB`,
 * `1.5 MB`, `10 GB`. The admin's figure of a customer's stored files and its quota.
 */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${shown} ${units[unit]}`;
}

/** How full a customer's quota is: `warning` from 90 %, `danger` when reached; none without a quota. */
export function quotaTone(bytes: number, quota: number): 'warning' | 'danger' | undefined {
  if (!quota) return undefined;
  if (bytes >= quota) return 'danger';
  return bytes >= quota * 0.9 ? 'warning' : undefined;
}
