import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 30, item 8: one decision per file under docs/decisions/, ADR style, listed by the index
 * docs/decisions.md, and a superseded decision links to what replaced it.
 */
const docs = path.join(import.meta.dirname, '../../../../docs');
const files = fs.readdirSync(path.join(docs, 'decisions')).filter((f) => f.endsWith('.md'));
const index = fs.readFileSync(path.join(docs, 'decisions.md'), 'utf8');

describe('docs/decisions', () => {
  it('the index lists every decision file, and every link of the index opens one', () => {
    const linked = [...index.matchAll(/\]\(decisions\/([^)]+\.md)\)/g)].map((m) => m[1]);
    expect(files.filter((f) => !linked.includes(f))).toEqual([]);
    expect(linked.filter((f) => !files.includes(f!))).toEqual([]);
  });

  it.each(files)('%s has a title, a status, a context, a decision and its consequences', (file) => {
    const text = fs.readFileSync(path.join(docs, 'decisions', file), 'utf8');
    expect(file).toMatch(/^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$/);
    expect(text).toMatch(/^# \S/);
    expect(text).toMatch(/^- Status: (accepted|superseded|proposed)/m);
    for (const heading of ['## Context', '## Decision', '## Consequences']) expect(text).toContain(`\n${heading}`);
    // "Superseded" in a decision points at what replaced it, as a link to another decision file.
    for (const line of text.split('\n').filter((l) => /\*Superseded|^Superseded|: superseded by/i.test(l))) {
      expect(line, line.slice(0, 120)).toMatch(/\]\(\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md\)/);
    }
  });
});
