/**
 * A number a user copies into a carrier's site, a chat or a spreadsheet (order and waybill
 * numbers), with a copy button beside it. antd's `copyable` reports success even when the
 * clipboard refused (its copy's result is dropped), so the copy is made here and a refusal says
 * 'Copy failed' (spec §8).
 */
import { CopyOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import type { ReactNode } from 'react';
import { t } from '@/lib';

/**
 * The Clipboard API where the page may use it; else (a console on plain http by an intranet
 * address is not a secure context: no navigator.clipboard) the copy command from the click.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (permission, no focus): try the command below
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export function CopyNumber({ value, children }: { value: string | null | undefined; children?: ReactNode }) {
  const { message } = App.useApp();
  if (!value) return <>{children ?? value}</>;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {children ?? value}
      <Button
        type="text"
        size="small"
        icon={<CopyOutlined />}
        aria-label={`${t('feedback.copy')} ${value}`}
        title={t('feedback.copy')}
        data-testid={`copy-${value}`}
        onClick={async (e) => {
          // In a table row or a link: the copy is the only thing the click does.
          e.preventDefault();
          e.stopPropagation();
          if (await copyText(value)) message.success(t('feedback.copied'));
          else message.error(t('feedback.copyFailed'));
        }}
      />
    </span>
  );
}
