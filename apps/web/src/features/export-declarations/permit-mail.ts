import type { exportDeclarations as D } from '@console/contract';
import { t } from '@/lib/i18n.ts';
import './i18n.ts';

/** What the permit column says about a mail that did not go: its tag, why, and what to do. */
export type PermitMailProblem = {
  tag: string;
  color: 'red' | 'orange';
  reason: string;
  next: string;
  /** The id to quote to support, worded ("Reference …"); null when the server has none. */
  reference: string | null;
};

/** Sentences run on: a space after an English one, none after a Chinese full stop. */
export const sentences = (...parts: (string | null)[]) =>
  parts
    .filter((p): p is string => !!p)
    .reduce((all, p) => (all === '' || /[。）！]$/.test(all) ? all + p : `${all} ${p}`), '');

/**
 * The server's key worded by the console (issue 38): refused and failed are red (the mail did not
 * arrive), stopped and no address orange (stopped may have arrived; no address was never tried).
 * Each is resent by uploading the permit again. A failure without a key (an older server) reads
 * as a failed mail.
 */
export function permitMailProblem(permit: D.ExportDeclarationRow['permit']): PermitMailProblem | null {
  if (!permit || (!permit.emailErrorKey && !permit.emailError)) return null;
  const key = permit.emailErrorKey ?? 'declMailFailed';
  const w = (k: string) => t(`exportDeclarations.${k}_${key}`);
  return {
    tag: w('mailTag'),
    color: key === 'declMailStopped' || key === 'declMailNoAddress' ? 'orange' : 'red',
    reason: w('mailWhy'),
    next: w('mailNext'),
    reference: permit.emailErrorId ? t('exportDeclarations.mailReference', { id: permit.emailErrorId }) : null,
  };
}
