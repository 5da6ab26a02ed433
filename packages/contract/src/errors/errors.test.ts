import { describe, expect, it } from 'vitest';
import { ruleMessages } from '../messages.ts';
import { catalogueParts, errorMessages } from './index.ts';

describe('the one catalogue of message keys', () => {
  it('defines each key once across all parts (no part silently shadows another)', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [part, catalogue] of Object.entries(catalogueParts)) {
      for (const key of Object.keys(catalogue)) {
        if (seen.has(key)) twice.push(`${key}: ${seen.get(key)} and ${part}`);
        seen.set(key, part);
      }
    }
    expect(twice).toEqual([]);
    expect(Object.keys(errorMessages).length).toBe(seen.size);
  });

  it('shares no key with the field rules, whose words would then depend on the lookup order', () => {
    expect(Object.keys(ruleMessages).filter((k) => Object.hasOwn(errorMessages, k))).toEqual([]);
  });

  it('holds the keys clients match on (docs/api.md)', () => {
    for (const key of ['recordChanged', 'validationFailed', 'internal', 'pickupSlotFull', 'forbidden'])
      expect(errorMessages).toHaveProperty([key]);
  });
});
