/**
 * Less motion for users who ask their system for it: antd's dialogs open without their zoom
 * (ThemeProvider sets antd's `motion` token from `prefers-reduced-motion`). Every class the page
 * gives an element while a dialog opens is recorded, so the check does not depend on timing.
 */
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';

for (const [reducedMotion, animated] of [
  ['no-preference', true],
  ['reduce', false],
] as const) {
  test(`a dialog opens ${animated ? 'with' : 'without'} its zoom when the system asks for ${reducedMotion}`, async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ reducedMotion });
    await loginByCookie(context, request, 'demo');
    const page = await context.newPage();
    await page.goto(`${MAIN}/home/order/interceptions`);
    await expect(page.getByTestId('interception-table')).toBeVisible();
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { seen: string[] }).seen = []);
      const note = (el: Node) => {
        if (el instanceof Element) seen.push(el.getAttribute('class') ?? '');
      };
      new MutationObserver((changes) => {
        for (const c of changes) {
          note(c.target);
          c.addedNodes.forEach((n) => {
            note(n);
            if (n instanceof Element) n.querySelectorAll('[class]').forEach(note);
          });
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.getByTestId('interception-create').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('interception-numbers')).toBeVisible();
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    // The zoom's moving phase; without motion the dialog goes from its first frame to the end.
    expect(seen.some((c) => /\bant-zoom-(appear|enter)-active\b/.test(c))).toBe(animated);
    // Either way the dialog works: it closes.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await context.close();
  });
}
