/**
 * The server's messages say the same in both languages (issue 30, item 6): the contract's one
 * catalogue holds them all; each text is non-empty in en and zh-CN with the same placeholders;
 * and every literal message key the code raises or translates is defined, in the catalogue or
 * among the contract's rules (it found `pickupDate`, which reached users as the bare key).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleMessage } from '@console/contract';
import { allMessages, translate } from '../../src/lib/messages.ts';

const src = join(import.meta.dirname, '../../src');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [p] : [];
  });
}
const files = sources(src);
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Where the code names a message key literally. */
const KEY_USES = [
  /AppError\.(?:badRequest|conflict|forbidden|unauthorized)\(\s*'([^']+)'/g,
  /AppError\.field\(\s*[^,]+,\s*'([^']+)'/g,
  /new AppError\(\s*ErrorCode\.\w+,\s*'([^']+)'/g,
  /\btranslate\(\s*[\w.]+,\s*'([^']+)'/g,
];

describe('server messages in both languages', () => {
  // The contract's one catalogue (@console/contract/errors), every part of it.
  const all = allMessages();

  it('loads every catalogue', () => {
    expect(Object.keys(all).length).toBeGreaterThan(300);
  });

  it('every text is written in both languages, with the same placeholders', () => {
    const wrong: string[] = [];
    for (const [key, texts] of Object.entries(all)) {
      if (!texts.en?.trim() || !texts['zh-CN']?.trim()) wrong.push(`${key}: empty`);
      else if (placeholders(texts.en).join() !== placeholders(texts['zh-CN']).join())
        wrong.push(`${key}: placeholders`);
    }
    expect(wrong).toEqual([]);
  });

  it('every literal key the code raises or translates is defined', () => {
    const missing: string[] = [];
    for (const f of files) {
      const code = readFileSync(f, 'utf8');
      for (const re of KEY_USES) {
        for (const m of code.matchAll(re))
          if (!(m[1]! in all) && !ruleMessage(m[1]!)) missing.push(`${f.slice(src.length + 1)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("a contract rule's key raised by a service reads as the rule's words, not the bare key", () => {
    expect(translate('en', 'pickupDate')).toBe(ruleMessage('pickupDate')!.en);
    expect(translate('zh-CN', 'pickupDate')).toBe(ruleMessage('pickupDate')!['zh-CN']);
  });
});
