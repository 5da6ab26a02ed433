import { randomInt } from 'node:crypto';
import { chinaDate } from '@console/contract';

/**
 * The last digits of a document number. They used to be random: two numbers made in the same
 * millisecond (or under a test's frozen clock) collided once in a thousand per pair, and the
 * unique index answered "this batch number already exists" (label-B dry runs failed so under
 * load). A counter of this process instead, starting at a random point so that two instances on
 * one PostgreSQL are unlikely to walk in step: a process's numbers are distinct up to `modulo`
 * of them a millisecond.
 */
let counter = randomInt(1_000_000);
export function numberSuffix(modulo: 100 | 1000 = 1000): string {
  counter = (counter + 1) % 1_000_000;
  return String(counter % modulo).padStart(String(modulo - 1).length, '0');
}

/** A document number: prefix, China date, the clock's last 8 digits of milliseconds, 3 counter digits. */
export function documentNumber(prefix: string, at: Date): string {
  return `${prefix}${chinaDate(at).replaceAll('-', '')}${String(at.getTime() % 100_000_000).padStart(8, '0')}${numberSuffix()}`;
}
