/**
 * axe on the console (issue 28 item 26): WCAG 2.1 A and AA, serious or critical violations only,
 * one line each with axe's own reason (for contrast: the colours and the ratio found). Used by the
 * page walk (shell/every-page.spec.ts) and by the dialogs' spec (shell/axe-dialogs.spec.ts).
 *
 * Legacy mode runs axe.run in the page itself. The default mode runs axe in each frame and then
 * finishes in a new blank page of the context (made for cross-origin frames): one more page
 * opened, injected and closed per check. The console has no frames, so both modes check the same
 * nodes with the same rules.
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
  const axe = new AxeBuilder({ page }).withTags(WCAG_21_AA).setLegacyMode();
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
