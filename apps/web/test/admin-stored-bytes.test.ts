import { describe, expect, it } from 'vitest';
import { formatBytes, quotaTone } from '../src/features/admin/bytes.ts';

/** The admin's figure of a customer's stored files (issue 36, item 5) as people read it. */
describe('a customer’s stored bytes on the customer page', () => {
  it('reads in binary units, one decimal, none when whole', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(8196)).toBe('8 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10 GB');
    expect(formatBytes(64 * 1024 ** 4)).toBe('64 TB');
  });

  it('warns from 90 % of the quota and alarms once it is reached; none without a quota', () => {
    expect(quotaTone(89, 100)).toBeUndefined();
    expect(quotaTone(90, 100)).toBe('warning');
    expect(quotaTone(100, 100)).toBe('danger');
    expect(quotaTone(10 ** 12, 0)).toBeUndefined();
  });
});
