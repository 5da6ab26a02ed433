/**
 * Issue 28 #10, "请输入orderNo": a user reads field names, never keys. Walks every request field
 * of the contract (and the import sheet's column keys) and fails on a message of the server or of
 * the contract's field rules, in either language, that shows such a key.
 */
import { describe, expect, it } from 'vitest';
import { allFieldMessageTemplates, calls, leavesOf } from '@console/contract';
import { allMessages } from '../../src/lib/messages.ts';
import { COLUMNS } from '../../src/domain/order-templates/template-columns.ts';

/** A key reads as code, not as a word: camelCase, snake_case (plain words such as "name" are words). */
const looksLikeKey = (k: string) => /[a-z][A-Z]|_/.test(k) && k.length > 2;

function contractKeys(): Set<string> {
  const keys = new Set<string>();
  for (const group of Object.values(calls) as Record<string, { request?: unknown }>[])
    for (const call of Object.values(group)) {
      if (!call?.request) continue;
      for (const leaf of leavesOf(call.request as never))
        for (const p of leaf.path) if (typeof p === 'string' && looksLikeKey(p)) keys.add(p);
    }
  for (const k of Object.keys(COLUMNS)) if (looksLikeKey(k)) keys.add(k);
  return keys;
}

describe('messages show field names, never keys', () => {
  const keys = contractKeys();

  it('finds the keys to look for', () => {
    expect(keys.has('orderNo')).toBe(true);
    expect(keys.has('recipientIdCard')).toBe(true);
  });

  it('no server message and no field rule shows a key, in either language', () => {
    const texts = [
      ...Object.entries(allMessages()).flatMap(([k, t]) => [
        [`server ${k} en`, t.en],
        [`server ${k} zh-CN`, t['zh-CN']],
      ]),
      ...allFieldMessageTemplates().flatMap((t) => [
        ['rule en', t.en],
        ['rule zh-CN', t['zh-CN']],
      ]),
    ] as [string, string][];
    const found: string[] = [];
    for (const [where, text] of texts)
      for (const word of text.replace(/\{\w+\}/g, ' ').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])
        if (keys.has(word)) found.push(`${where}: ${word} in "${text}"`);
    expect(found).toEqual([]);
  });
});
