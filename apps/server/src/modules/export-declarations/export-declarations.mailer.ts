import nodemailer from 'nodemailer';

/**
 * The permit e-mail, over SMTP configured once from the environment (SMTP_URL, SMTP_FROM). No
 * URL: no mailer, and the service reports `notConfigured` instead of pretending it sent.
 */
export interface PermitMailer {
  send(m: { to: string; subject: string; text: string; filename: string; pdf: Buffer }): Promise<void>;
}

export function smtpMailer(url: string, from: string): PermitMailer | null {
  if (!url) return null;
  const transport = nodemailer.createTransport(url);
  return {
    async send(m) {
      await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        attachments: [{ filename: m.filename, content: m.pdf, contentType: 'application/pdf' }],
      });
    },
  };
}
