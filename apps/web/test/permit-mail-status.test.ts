import { afterAll, describe, expect, it } from 'vitest';
import { permitMailProblem, sentences } from '../src/features/export-declarations/permit-mail.ts';
import { setLocale } from '../src/lib/i18n.ts';

/**
 * Issue 38: every permit mail error showed the same "Mail failed" tag. The console words the
 * server's key: what happened and what to do next, in both languages.
 */
const permit = (emailErrorKey: string | null, emailErrorId: string | null = null) =>
  ({ uploadedAt: '2026-12-07T00:00:00.000Z', emailedAt: null, emailError: 'x', emailErrorKey, emailErrorId }) as any;
const ID = '0b7c2f0e-1111-4222-8333-444455556666';

afterAll(() => setLocale('zh-chs'));

describe('a permit whose e-mail did not go', () => {
  it('stopped: interrupted, may or may not have arrived, upload again to resend (en)', () => {
    setLocale('en');
    const p = permitMailProblem(permit('declMailStopped'))!;
    expect(p.tag).toBe('Mail interrupted');
    expect(p.color).toBe('orange');
    expect(p.reason).toMatch(/interrupted too many times.*may or may not have reached the recipient/);
    expect(p.next).toMatch(/upload the permit again to resend/i);
    expect(p.reference).toBeNull();
  });

  it('failed after its tries, refused, no address: each says its own reason and next step (en)', () => {
    setLocale('en');
    const failed = permitMailProblem(permit('declMailFailed', ID))!;
    expect(failed).toMatchObject({ tag: 'Mail failed', color: 'red', reference: `Reference ${ID}` });
    expect(failed.reason).toMatch(/could not be sent, even after retrying/);
    expect(failed.next).toMatch(/upload the permit again to resend/i);
    const refused = permitMailProblem(permit('declMailRefused', ID))!;
    expect(refused).toMatchObject({ tag: 'Mail refused', color: 'red' });
    expect(refused.reason).toMatch(/mail server refused/);
    expect(refused.next).toMatch(/receiving address.*upload the permit again to resend/);
    const noAddress = permitMailProblem(permit('declMailNoAddress'))!;
    expect(noAddress).toMatchObject({ tag: 'Not e-mailed', color: 'orange' });
    expect(noAddress.reason).toMatch(/no receiving e-mail address/);
  });

  it('in Chinese too', () => {
    setLocale('zh-chs');
    const stopped = permitMailProblem(permit('declMailStopped'))!;
    expect(stopped.tag).toBe('邮件中断');
    expect(stopped.reason).toMatch(/可能已收到，也可能未收到/);
    expect(stopped.next).toMatch(/重新上传许可证以重发/);
    const failed = permitMailProblem(permit('declMailFailed', ID))!;
    expect(failed.tag).toBe('邮件失败');
    expect(failed.reason).toMatch(/重试后仍未能发送/);
    expect(failed.reference).toBe(`编号 ${ID}`);
    expect(permitMailProblem(permit('declMailRefused'))!.reason).toMatch(/拒收/);
    expect(permitMailProblem(permit('declMailNoAddress'))!.reason).toMatch(/未设置接收邮箱/);
  });

  it('runs the sentences on as each language does', () => {
    expect(sentences('It failed.', 'Upload again.', null)).toBe('It failed. Upload again.');
    expect(sentences('发送失败。', '请重新上传。', '编号 1')).toBe('发送失败。请重新上传。编号 1');
  });

  it('sent, not yet tried, or no permit: nothing to say', () => {
    expect(permitMailProblem(null)).toBeNull();
    expect(permitMailProblem({ ...permit(null), emailError: null })).toBeNull();
  });
});
