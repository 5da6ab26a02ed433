/**
 * Drafts of forms the session ended under (issue 36 #19). When the session ends while tabs hold
 * unsaved edits (the refresh refused, the session ended by someone else), each dirty form's values
 * are kept in this browser, under the user and the tab's path; the same user, logged in again, is
 * offered them back on opening that page (`useFormDraft`). Another user never reads them: every
 * read names its user. A draft lives DRAFT_TTL_MS and goes as soon as it is restored, discarded
 * or the form is saved. Passwords, secrets and files are never kept.
 */
import dayjs from 'dayjs';
import { readLocal, removeLocal, writeLocal } from './storage.ts';

/** How long a kept draft is offered: a session that ended yesterday is still worth a question. */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;
const KEY = 'formDrafts';

export interface FormDraft {
  user: string;
  path: string;
  /** When it was kept (ms since the epoch). */
  at: number;
  values: Record<string, unknown>;
}

/** The kept drafts still in date (expired ones are dropped from the browser on every read). */
function live(now: number): FormDraft[] {
  const all = readLocal<unknown>(KEY, []);
  const list = Array.isArray(all) ? (all as FormDraft[]) : [];
  const fresh = list.filter(
    (d) =>
      d &&
      typeof d.user === 'string' &&
      typeof d.path === 'string' &&
      typeof d.at === 'number' &&
      now - d.at < DRAFT_TTL_MS &&
      d.at <= now + 60_000,
  );
  if (fresh.length !== list.length) store(fresh);
  return fresh;
}

function store(list: FormDraft[]) {
  if (list.length) writeLocal(KEY, list);
  else removeLocal(KEY);
}

/** Keeps one form's values for `user` on `path`, replacing an older draft of the same page. */
export function keepDraft(user: string, path: string, values: Record<string, unknown>, now = Date.now()) {
  const kept = storable(values);
  const list = live(now).filter((d) => !(d.user === user && d.path === path));
  if (kept && Object.keys(kept).length) list.push({ user, path, at: now, values: kept });
  store(list);
}

/** This user's draft of this page, in date, with its values as the form takes them; else null. */
export function readDraft(user: string, path: string, now = Date.now()): FormDraft | null {
  const d = live(now).find((x) => x.user === user && x.path === path);
  return d ? { ...d, values: revive(d.values) as Record<string, unknown> } : null;
}

export function dropDraft(user: string, path: string, now = Date.now()) {
  const list = live(now);
  const rest = list.filter((d) => !(d.user === user && d.path === path));
  if (rest.length !== list.length) store(rest);
}

/** Field names whose values never leave the page: credentials typed into a form. */
const SECRET_FIELD = /password|passwd|secret|token/i;
const SKIP = Symbol('skip');

/** A file chosen in the form (a File, or antd's upload entry around one). */
const isFile = (v: object) =>
  (typeof Blob !== 'undefined' && v instanceof Blob) || 'originFileObj' in v || ('uid' in v && 'status' in v);

/**
 * The values as JSON can keep them: files and secret fields left out, dates tagged so they come
 * back as the dayjs values the date pickers take. Exported for the unit tests.
 */
export function storable(v: unknown, key = ''): any {
  if (key && SECRET_FIELD.test(key)) return SKIP;
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return SKIP;
  if (dayjs.isDayjs(v)) return v.isValid() ? { $date: v.toISOString() } : SKIP;
  if (v instanceof Date) return { $date: v.toISOString() };
  if (isFile(v)) return SKIP;
  if (Array.isArray(v)) {
    const out = v.map((x) => storable(x)).filter((x) => x !== SKIP);
    // A list of files (an upload's list) is left out whole rather than kept empty.
    return out.length === 0 && v.length > 0 ? SKIP : out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const kept = storable(x, k);
    if (kept !== SKIP) out[k] = kept;
  }
  return out;
}

function revive(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(revive);
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === '$date') return dayjs((v as { $date: string }).$date);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]));
  }
  return v;
}

/**
 * The forms that could be kept, by tab path: each `useFormDraft` registers how to read its form.
 * Entries are never removed by the page (a hidden tab's effects are torn down while its form lives
 * on); the caller says which paths are dirty, and only those are read.
 */
const sources = new Map<string, () => Record<string, unknown>>();

export function registerDraftSource(path: string, read: () => Record<string, unknown>) {
  sources.set(path, read);
}

/**
 * The session ends: keeps the values of the forms on `dirtyPaths` as `user`'s drafts. Returns how
 * many were kept. Called before the session's user and the pages are gone.
 */
export function keepDirtyForms(user: string | undefined, dirtyPaths: readonly string[], now = Date.now()): number {
  if (!user) return 0;
  let kept = 0;
  for (const path of dirtyPaths) {
    const read = sources.get(path);
    if (!read) continue;
    try {
      keepDraft(user, path, read(), now);
      kept++;
    } catch {
      // A form that cannot be read is lost as before; the others are still kept.
    }
  }
  sources.clear();
  return kept;
}
