/**
 * Which API calls the console requested during a browser run (issue 28, item 25). The fixture in
 * ./test.ts records, per worker, every /api/ path a page of any context asked for (never the calls
 * specs make themselves through `request`: those prove nothing about the console); the global
 * teardown (./api-coverage.teardown.ts) merges the workers' records and compares them with the
 * spec's calls.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { specCallPaths } from '@console/contract';

/**
 * Spec calls no console page requests, by design; each says why. The count reports them apart
 * ("146/150 + 4 not console calls"), so a call leaves this list the day the console starts using it.
 */
const ONE_LEVEL_DIVISIONS =
  'the console picks divisions from cn/address/tree, one searchable cascader (docs/decisions.md, "Calls no ' +
  'page used"); the one-level calls stay served, with the same data, for clients that want one level at a time';
export const NOT_CONSOLE_CALLS: Record<string, string> = {
  'cn/address/provinces': ONE_LEVEL_DIVISIONS,
  'cn/address/cities': ONE_LEVEL_DIVISIONS,
  'cn/address/areas': ONE_LEVEL_DIVISIONS,
  'jdAuthorize/select':
    'no screen of the spec picks a JD authorization (its only JD pages are the list and the create and edit ' +
    'forms); served for clients that pick a shop (docs/decisions/2026-11-27-jd-authorize-select-not-a-console-call.md)',
};

/**
 * Spec calls no spec's page had requested when the check came (issue 28): each waits for a spec that
 * clicks what requests it. The list only shrinks, and is empty now: every spec call but the four above
 * is requested by a console page in the browser run. A call requested again is reported for removal, and
 * a spec call missing from the run and from both lists fails CI.
 */
export const NOT_YET_EXERCISED: Record<string, string> = {};

/** One worker's record: the spec files it ran and the API paths their pages requested. */
export interface WorkerRecord {
  files: string[];
  paths: string[];
}

export const recordDir = (runDir: string) => join(runDir, 'api-calls');

/** `http://host/api/order/orders?x=1` → `order/orders`; null for anything that is not an API call. */
export function apiCallPath(url: string): string | null {
  const { pathname } = new URL(url);
  return pathname.startsWith('/api/') ? decodeURIComponent(pathname.slice('/api/'.length)) : null;
}

export function writeRecord(runDir: string, workerIndex: number, record: WorkerRecord) {
  mkdirSync(recordDir(runDir), { recursive: true });
  writeFileSync(join(recordDir(runDir), `worker-${workerIndex}.json`), JSON.stringify(record));
}

export function readRecords(runDir: string): WorkerRecord {
  const files = new Set<string>();
  const paths = new Set<string>();
  let names: string[] = [];
  try {
    names = readdirSync(recordDir(runDir));
  } catch {
    // No worker recorded anything (a run that only listed tests).
  }
  for (const name of names) {
    const r = JSON.parse(readFileSync(join(recordDir(runDir), name), 'utf8')) as WorkerRecord;
    r.files.forEach((f) => files.add(f));
    r.paths.forEach((p) => paths.add(p));
  }
  return { files: [...files], paths: [...paths] };
}

export interface Coverage {
  /** Spec calls the console requested. */
  exercised: string[];
  /** Spec calls no spec's page requested and that are listed nowhere: a failure on CI. */
  missing: string[];
  /** Spec calls no console page requests by design (NOT_CONSOLE_CALLS). */
  excused: string[];
  /** Excused calls the console requested after all: the excuse is wrong, a failure on CI. */
  wronglyExcused: string[];
  /** Listed as not yet exercised and still not requested (NOT_YET_EXERCISED). */
  pending: string[];
  /** Listed as not yet exercised, yet requested: to be taken off the list. */
  nowExercised: string[];
  /** Spec files of the suite no worker ran: a partial run. */
  notRun: string[];
  summary: string;
}

export function coverage(
  record: WorkerRecord,
  allSpecFiles: string[],
  specCalls: readonly string[] = specCallPaths,
  excuses: Record<string, string> = NOT_CONSOLE_CALLS,
  notYet: Record<string, string> = NOT_YET_EXERCISED,
): Coverage {
  const requested = new Set(record.paths);
  const ran = new Set(record.files);
  const excused = specCalls.filter((c) => c in excuses);
  const exercised = specCalls.filter((c) => requested.has(c) && !(c in excuses));
  const missing = specCalls.filter((c) => !requested.has(c) && !(c in excuses) && !(c in notYet));
  const wronglyExcused = excused.filter((c) => requested.has(c));
  const pending = specCalls.filter((c) => c in notYet && !requested.has(c));
  const nowExercised = specCalls.filter((c) => c in notYet && requested.has(c));
  const notRun = allSpecFiles.filter((f) => !ran.has(f));
  const summary =
    `spec calls requested by the console: ${exercised.length}/${specCalls.length}` +
    (excused.length ? ` + ${excused.length} not console calls` : '') +
    (pending.length ? ` + ${pending.length} not yet exercised (listed)` : '') +
    (notRun.length ? ` (partial run: ${notRun.length} of ${allSpecFiles.length} spec files not run)` : '');
  return { exercised, missing, excused, wronglyExcused, pending, nowExercised, notRun, summary };
}

/** Every spec file of the suite, relative to the e2e folder, as the fixture names them. */
export function specFiles(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory())
      return ['node_modules', 'test-results', 'playwright-report'].includes(e.name) ? [] : specFiles(root, rel);
    return e.name.endsWith('.spec.ts') ? [rel] : [];
  });
}
