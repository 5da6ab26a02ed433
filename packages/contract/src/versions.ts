import { z } from 'zod';
import { MAX_ID, whole } from './fields.ts';

/**
 * Record versions (issue 28 #3, ARCHITECTURE.md "Record versions": every edit form carries the version it was loaded
 * from). Each record an edit form changes has a `version` the database bumps on every write;
 * the form sends the one it was loaded from and a stale save is refused with 409
 * `recordChanged`, `data` = `staleRecord` (the record as it stands now, in the shape its read
 * call answers), so the console can show what changed.
 *
 * Optional in the request: the spec's calls carry no version, and a client that sends none
 * keeps the spec's last-save-wins (docs/decisions.md "Record versions"). The console always sends it.
 */
export const recordVersion = z.number().int().min(1);
/** In a request: bounded like an id, so a hostile 2^31 is a 422 on `version`, not a row never found. */
export const expectedVersion = whole(1, MAX_ID).optional();

/** The key of the 409 a stale save answers. */
export const STALE_KEY = 'recordChanged';

/** `data` of the 409: the record's version now and the record itself as its read call shows it. */
export const staleRecord = <T extends z.ZodType>(record: T) => z.object({ version: recordVersion, current: record });
export type StaleRecord<T = unknown> = { version: number; current: T };
