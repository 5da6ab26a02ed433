/**
 * Helpers for the specs of the console's paged tables (issue 11 findings 1 and 22): row keys,
 * the pager and the size changer of an antd table, and fixture rows cloned in the test
 * server's SQLite file where the API cannot make enough of them in a test's time.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { withDb } from './db.ts';

/** The wrapper of a table found by the test id on its <Table>. */
export const wrapperOf = (table: Locator) =>
  table.locator('xpath=ancestor-or-self::div[contains(concat(" ", @class, " "), " ant-table-wrapper ")]').first();

/** The row keys (ids) shown, in order. */
export const rowKeys = (table: Locator) =>
  table
    .locator('tbody tr.ant-table-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-row-key'))));

/** Waits until the table shows exactly these ids, in this order. */
export async function expectRows(table: Locator, ids: number[]) {
  expect(ids.length, 'the API answered rows to compare with').toBeGreaterThan(0);
  // The first paint of a page loads its chunks: on a busy machine that takes longer than a click.
  await expect.poll(() => rowKeys(table), { timeout: 30_000 }).toEqual(ids);
}

export async function gotoPage(table: Locator, n: number) {
  await wrapperOf(table).locator(`.ant-pagination-item-${n}`).click();
  await expect(wrapperOf(table).locator('.ant-pagination-item-active')).toHaveText(String(n));
}

/** Picks "N 条/页" in the pager's size changer. */
export async function choosePageSize(page: Page, table: Locator, size: number) {
  const select = wrapperOf(table).locator('.ant-pagination-options .ant-select');
  // On a loaded machine the dropdown can still be animating when the option is clicked, and the
  // click is lost: choose again until the select shows the size.
  await expect(async () => {
    await select.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${size} 条/页$`) })
      .click({ timeout: 5_000 });
    await expect(select).toContainText(`${size} 条/页`, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** Clicks a column header to sort (antd cycles ascending → descending → none). */
export const sortBy = (table: Locator, title: string) =>
  table.locator('thead th.ant-table-column-has-sorters').filter({ hasText: title }).click();

/**
 * Clones `count` copies of the row `id` of `table`, with the given columns set by SQL
 * expressions over the copy number `:n` (unique numbers, another status…). Returns new ids.
 */
export function cloneRows(
  file: string,
  table: string,
  id: number,
  count: number,
  set: Record<string, string>,
): number[] {
  return withDb(file, (db) => {
    const cols = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'id');
    const select = cols.map((c) => set[c] ?? c);
    const insert = db.prepare(
      `INSERT INTO ${table} (${cols.join(', ')}) SELECT ${select.join(', ')} FROM ${table} WHERE id = :id RETURNING id`,
    );
    const ids: number[] = [];
    db.exec('BEGIN IMMEDIATE');
    // node:sqlite refuses a named parameter the statement does not use.
    const usesN = Object.values(set).some((e) => e.includes(':n'));
    for (let n = 1; n <= count; n++) ids.push((insert.get(usesN ? { id, n } : { id }) as { id: number }).id);
    db.exec('COMMIT');
    return ids;
  });
}

export function sql(file: string, text: string, params: Record<string, string | number | null> = {}) {
  return withDb(file, (db) => db.prepare(text).run(params));
}

export function sqlGet<T>(file: string, text: string, params: Record<string, string | number | null> = {}): T[] {
  return withDb(file, (db) => db.prepare(text).all(params) as T[]);
}

/** Fails the test on any uncaught error or promise rejection in the page (finding 3). */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}
