import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/http/openapi.ts';

/**
 * Issue 36, item 13: docs/api.md's status table is what the OpenAPI document declares. It lacked
 * 404 and 507, which calls answer and the document declares; a status added to the contract
 * (`declaredStatuses`, statuses.ts) fails here until the table says what it means.
 */
const apiMd = fs.readFileSync(path.join(import.meta.dirname, '../../../../docs/api.md'), 'utf8');

/** The codes of the "Envelope and status" table's first column (`413 / 415` is two). */
function tableCodes(): number[] {
  const section = apiMd.slice(apiMd.indexOf('## Envelope and status'));
  const table = section.slice(section.indexOf('| code |'), section.indexOf('\n\n', section.indexOf('| code |')));
  return table
    .split('\n')
    .slice(2)
    .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/\b\d{3}\b/g)].map((m) => Number(m[0])));
}

describe('docs/api.md: the status table', () => {
  it('lists exactly the statuses the OpenAPI document declares, each once', () => {
    const doc = openApiDocument('test') as { paths: Record<string, { post: { responses: object } }> };
    const declared = new Set(Object.values(doc.paths).flatMap((p) => Object.keys(p.post.responses).map(Number)));
    const codes = tableCodes();
    expect(codes.length).toBeGreaterThan(10);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual([...declared].sort());
  });
});
