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

/**
 * Whether a failed send may succeed if tried again later (issue 38 row 6: an SMTP hiccup was
 * final). An SMTP reply says it in its class (RFC 5321): 4xx is transient (greylisting, a full
 * queue, 421 "closing"), 5xx permanent (no such mailbox, refused content: the same mail gets the
 * same answer). Without a reply, a failure of the connection (refused, reset, timed out, a name
 * that did not resolve) is transient; anything else (credentials, TLS, a malformed message or
 * address) is a setting or the data, and trying again changes nothing.
 */
export function smtpFailure(err: unknown): 'transient' | 'permanent' {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { responseCode?: unknown; code?: unknown };
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) {
    return e.responseCode < 500 ? 'transient' : 'permanent';
  }
  return typeof e.code === 'string' && CONNECTION_FAILURES.has(e.code) ? 'transient' : 'permanent';
}

/** nodemailer's codes of a connection that failed or broke (and the socket's own, should one pass unwrapped). */
const CONNECTION_FAILURES = new Set([
  'ECONNECTION',
  'ESOCKET',
  'ETIMEDOUT',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
