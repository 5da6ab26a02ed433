import { z } from 'zod';

/** What the configuration's parts share (config.ts parses them all at once). */

/** A yes/no setting, in any of the spellings operators write. */
export const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

export class ConfigError extends Error {}
