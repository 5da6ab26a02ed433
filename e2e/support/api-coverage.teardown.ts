/**
 * After the run: which spec calls did the console never request (issue 28, item 25)? Printed on
 * every run; fails the run only on CI and only when every spec file ran, since a partial run
 * (one spec, a grep) requests few calls by nature.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coverage, readRecords, specFiles } from './api-coverage.ts';

export default function apiCoverageTeardown() {
  const runDir = process.env.E2E_RUN_DIR;
  if (!runDir) return;
  const result = coverage(readRecords(runDir), specFiles(dirname(dirname(fileURLToPath(import.meta.url)))));
  const complete = result.notRun.length === 0;
  const lines = [result.summary];
  // A partial run misses most calls by nature: the list is worth reading only after the whole suite.
  if (complete && result.missing.length) lines.push(`  never requested: ${result.missing.join(', ')}`);
  if (result.wronglyExcused.length)
    lines.push(`  listed as not console calls, yet requested: ${result.wronglyExcused.join(', ')}`);
  if (complete && result.nowExercised.length)
    lines.push(`  exercised now, take off NOT_YET_EXERCISED: ${result.nowExercised.join(', ')}`);
  console.log(lines.join('\n'));
  if (complete && process.env.CI && (result.missing.length || result.wronglyExcused.length))
    throw new Error(`The console left spec calls unexercised: ${result.summary} (see above)`);
}
