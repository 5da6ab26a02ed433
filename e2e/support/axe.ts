/**
 * axe on the console (issue 28 item 26): WCAG 2.1 A and AA, serious or critical violations only,
 * one line each with axe's own reason (for contrast: the colours and the ratio found). Used by the
 * page walk (shell/every-page.spec.ts) and by the dialogs' spec (shell/axe-dialogs.spec.ts).
 *
 * Legacy mode runs axe.run in the page itself. The default mode runs axe in each frame and then
 * finishes in a new blank page of the context (made for cross-origin frames): one more page
 * opened, injected and closed per check. The console has no frames, so both modes check the same
 * nodes with the same rules.
 *
 * AxeBuilder evaluates axe-core's source (about 550 kB) twice per check, even into a page that has
 * it from the check before. The page walk checks dozens of pages by client-side navigation in one
 * page, so the source is given only where the page does not hold axe yet; after that a one-token
 * script stands in for it (issue 37: the walk's time). The rules, tags and results are axe's own.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from './test.ts';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The violations inside `selector` (the whole page without one); each line starts with `label`. */
export async function accessibilityFaults(
  page: Page,
  selector?: string,
  label = selector ?? 'page',
): Promise<string[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  const axe = new AxeBuilder({ page, ...(loaded ? { axeSource: ';' } : {}) }).withTags(WCAG_21_AA).setLegacyMode();
  if (selector) axe.include(selector);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${label} ${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} — ${n.any[0]?.message ?? n.failureSummary ?? ''}`)
          .join(' | ')}`,
    );
}
