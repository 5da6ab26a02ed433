/**
 * Frontend log (spec route `log`): window errors, unhandled rejections, render errors and
 * failed calls, each with time, page and user. Kept in localStorage (bounded) so a user
 * can export it for support after a reload. Never stores tokens, passwords or bodies.
 */
import { useSyncExternalStore } from 'react';
import { getToken, readLocal, writeLocal } from './storage.ts';
import { isValidationError } from './validation-error.ts';

export type LogType = 'error' | 'rejection' | 'render' | 'call';
export interface LogEntry {
  id: string;
  time: string;
  type: LogType;
  message: string;
  detail?: string;
  page: string;
  user: string;
}

const KEY = 'frontend-log';
const MAX = 300;
let entries: LogEntry[] = readLocal<LogEntry[]>(KEY, []);
let user = '';
const listeners = new Set<() => void>();

export function setLogUser(name: string) {
  user = name;
}

/** Strips anything that looks like a credential before it is stored. */
export function redact(text: string): string {
  let out = text
    .replace(/Bearer\s+[\w.~+/=-]+/gi, 'Bearer [redacted]')
    .replace(
      /("?(?:password|old_password|access_token|token|secret)"?\s*[:=]\s*)("[^"]*"|[^\s,}&]+)/gi,
      '$1[redacted]',
    );
  const token = getToken();
  if (token) out = out.split(token).join('[redacted]');
  return out.slice(0, 4000);
}

export function addLog(type: LogType, message: string, detail?: string) {
  const entry: LogEntry = {
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    time: new Date().toISOString(),
    type,
    message: redact(message),
    detail: detail ? redact(detail) : undefined,
    page: location.pathname + location.search,
    user,
  };
  entries = [entry, ...entries].slice(0, MAX);
  writeLocal(KEY, entries);
  for (const l of listeners) l();
}

export function clearLog() {
  entries = [];
  writeLocal(KEY, entries);
  for (const l of listeners) l();
}

export function getLog(): LogEntry[] {
  return entries;
}

export function useLog(): LogEntry[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => entries,
  );
}

let installed = false;
export function installGlobalErrorCapture() {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (e) => {
    addLog(
      'error',
      e.message || String(e.error),
      e.error instanceof Error ? e.error.stack : `${e.filename}:${e.lineno}`,
    );
  });
  window.addEventListener('unhandledrejection', (e) => {
    const r: unknown = e.reason;
    // A submit that stopped at the form's own validation (a modal's OK awaiting validateForSubmit):
    // the fields and a toast already say why. Not a fault, and not the browser's "Uncaught (in
    // promise) Object" either (issue 36 #22).
    if (isValidationError(r)) {
      e.preventDefault();
      return;
    }
    // Coded API errors were already logged (and shown) by the client.
    if (r instanceof Error && r.name === 'ApiError') return;
    addLog('rejection', r instanceof Error ? r.message : String(r), r instanceof Error ? r.stack : undefined);
  });
}
