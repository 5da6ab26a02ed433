/**
 * Every page of the route catalogue, opened as each role in both languages (issue 11: "you have
 * opened every page in both languages as each role"). A page either renders inside the layout or
 * says 403 there; it never shows a raw message key, never throws, and in English its own words
 * (titles, labels, headers, buttons) carry no Chinese — data in cells may. Each page rendered is
 * also checked with axe against WCAG 2.1 A and AA (issue 28 item 26): no serious or critical
 * violation, on this walk rather than a second one (CI time).
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { routeCatalogue } from '@console/contract';
import { MAIN, VERSION } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';

const pagePaths = routeCatalogue
  .map((r) => r as { name: string; path: string; title: { zh: string; en: string } })
  .filter((r) => r.path.startsWith('/') && r.name !== 'index');

/** Client-side navigation, as a menu click does: no reload per page. */
async function open(page: Page, path: string) {
  await page.evaluate((p) => {
    history.pushState({}, '', `/home${p}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  // A page the role may not use shows 403 inside the layout, without a tab of its own.
  const forbidden = page.locator(`[data-testid="forbidden"][data-path="${path}"]`);
  const view = page.locator(`[data-tab-view="${path}"]`);
  await expect(view.or(forbidden)).toBeVisible();
  if (await forbidden.isVisible()) return null;
  await expect(view.locator('.page-spin, .ant-spin-spinning')).toHaveCount(0);
  return view;
}

// Message keys look like `frame.comingSoon.title` / `orders.list.columns.status`.
const RAW_KEY = /\b(?:frame|orders|items|batches|notices|home|log|session|auth|common)\.[a-z][\w]*(?:\.[\w]+)*\b/;
const CJK = /[\u3400-\u9fff]/;
// The page's own words: where data never goes.
const CHROME =
  '.ant-card-head-title, .ant-form-item-label, .ant-table-thead th, .ant-btn, .ant-tabs-tab, .ant-result-title, .ant-result-subtitle, h1, h2, h3, h4';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** axe runs in the console's default language only: what it checks does not change with the words. */
const AXE_LOCALE = 'zh-chs';

/**
 * The serious and critical WCAG 2.1 AA violations, one line each. The layout (header, menu, tab
 * bar) is the same around every page: it is checked whole with the home page, then only each
 * page's own view, which keeps the walk's added time small.
 */
async function accessibilityFaults(page: Page, path: string, whole: boolean): Promise<string[]> {
  const axe = new AxeBuilder({ page }).withTags(WCAG_21_AA);
  if (!whole) axe.include(`[data-tab-view="${path}"]`);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${path} ${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`)
          .join(' | ')}`,
    );
}

for (const user of ['demo', 'agent', 'operator', 'admin']) {
  for (const locale of ['zh-chs', 'en'] as const) {
    test(`${user} opens every page in ${locale}`, async ({ page, context, request }) => {
      // About 45 pages; a loaded machine needs minutes (axe's walk more).
      test.setTimeout(locale === AXE_LOCALE ? 900_000 : 300_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`${e.message}`));
      await context.addInitScript(
        ([key, value]) => localStorage.setItem(key, value),
        [`${VERSION}-locale`, JSON.stringify(locale)],
      );
      await loginByCookie(context, request, user);
      await page.goto(`${MAIN}/home/index`);
      // Saved tabs of the runs before (dozens) make the first screen slower on a loaded machine.
      await expect(page.getByTestId('home')).toBeVisible({ timeout: 30_000 });

      let rendered = 0;
      const faults = locale === AXE_LOCALE ? await accessibilityFaults(page, '/index', true) : [];
      for (const route of pagePaths) {
        const view = await open(page, route.path);
        const text = await (view ?? page.locator(`[data-testid="forbidden"][data-path="${route.path}"]`)).innerText();
        expect(text, `${route.path}: raw message key`).not.toMatch(RAW_KEY);
        if (!view) continue;
        rendered++;
        if (locale === AXE_LOCALE) {
          faults.push(...(await accessibilityFaults(page, route.path, false)));
        }
        expect(await page.title(), route.path).toContain(locale === 'en' ? route.title.en : route.title.zh);
        if (locale === 'en') {
          const words = await view.locator(CHROME).allInnerTexts();
          const chinese = words.filter((w) => CJK.test(w));
          expect(chinese, `${route.path}: Chinese in the English page's own words`).toEqual([]);
        }
      }
      // Every role reaches at least its order pages; a regression that 403s everything fails here.
      expect(rendered).toBeGreaterThan(user === 'demo' ? 15 : 10);
      expect(errors).toEqual([]);
      expect(faults, 'serious or critical WCAG 2.1 AA violations (axe)').toEqual([]);
    });
  }
}
