/**
 * Issue 38: every permit mail that did not go showed the same red "邮件失败 / Mail failed" tag.
 * The permit column now says what happened and what to do, from the key the server answers: a
 * mail stopped after too many interruptions (may or may not have arrived) and a mail that failed
 * after its tries, each with "upload the permit again to resend"; the failed one's reference in
 * the tag's tooltip. On the SHORT_TTL server, whose declarations no other spec relies on; the
 * results are written into its file (a mail server that fails on cue is the server tests' part).
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { withDb } from '../support/db.ts';
import { loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);
const REFERENCE = '0b7c2f0e-1111-4222-8333-444455556666';

const setMailResult = (orderNo: string, key: string, errorId: string | null) =>
  withDb(dbFile('short-ttl'), (db) =>
    db
      .prepare(
        `UPDATE export_declarations SET permit_emailed_at = NULL, permit_email_error = ?, permit_email_error_id = ?
         WHERE order_id = (SELECT id FROM orders WHERE order_no = ?) AND permit_file_id IS NOT NULL`,
      )
      .run(key, errorId, orderNo),
  );

test('a stopped and a failed permit mail each say why and what to do', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  await loginByCookie(context, request, 'operator', SHORT_TTL);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);
  await page.goto(`${SHORT_TTL}/home/order/exportDeclarations`);
  await page.getByTestId('decl-filter-nos').fill('DMX100001\nD2X100001');
  await page.getByTestId('decl-search').click();
  const table = page.getByTestId('decl-table');
  const rowOf = (orderNo: string) => table.locator(`tr[data-order-no="${orderNo}"]`);

  // A permit on each (no mail server on the e2e servers: nothing is sent or recorded).
  for (const orderNo of ['DMX100001', 'D2X100001']) {
    await rowOf(orderNo).locator('input[type=file]').setInputFiles({
      name: 'permit.pdf',
      mimeType: 'application/pdf',
      buffer: TINY_PDF,
    });
    await expect(rowOf(orderNo).getByTestId('decl-permit-download')).toBeVisible();
  }
  expect(setMailResult('DMX100001', 'declMailStopped', null).changes).toBe(1);
  expect(setMailResult('D2X100001', 'declMailFailed', REFERENCE).changes).toBe(1);
  await page.getByTestId('decl-search').click();

  const stopped = rowOf('DMX100001');
  await expect(stopped.getByTestId('decl-mail-error')).toHaveText('邮件中断');
  await expect(stopped.getByTestId('decl-mail-reason')).toContainText('收件人可能已收到，也可能未收到');
  await expect(stopped.getByTestId('decl-mail-reason')).toContainText('重新上传许可证以重发');

  const failed = rowOf('D2X100001');
  await expect(failed.getByTestId('decl-mail-error')).toHaveText('邮件失败');
  await expect(failed.getByTestId('decl-mail-reason')).toContainText('多次重试后仍未能发送');
  await expect(failed.getByTestId('decl-mail-reason')).toContainText('重新上传许可证以重发');
  await failed.getByTestId('decl-mail-error').hover();
  await expect(page.getByRole('tooltip')).toContainText(`编号 ${REFERENCE}`);
  await table.screenshot({ path: test.info().outputPath('permit-mail-reasons.png') });
  await page.screenshot({ path: '/tmp/dm/permit-mail-reasons.png', fullPage: true });
  expect(errors).toEqual([]);
  await context.close();
});
