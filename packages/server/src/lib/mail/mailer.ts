import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/** Mail is one message to one address; `link` is the single URL the recipient needs. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The single URL the recipient needs ('' for a mail with a code only, such as reauthentication). */
  link: string;
  /** The 6-digit code of the mail, when it has one. */
  code?: string;
}

/** Mailer sends mails over SMTP, or writes them to the log when no SMTP server is configured. */
export interface Mailer {
  /** delivers is true when mails really leave the server (SMTP configured). */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** MailerOptions configure createMailer. */
export interface MailerOptions {
  /** smtp:// or smtps:// URL (credentials in the URL), or null to log mails instead. */
  smtpUrl: string | null;
  /** The From header, e.g. `Basalt <no-reply@example.com>`. */
  from: string;
  log: FastifyBaseLogger;
}

/** createMailer picks the SMTP transport when configured, else the log. */
export function createMailer({ smtpUrl, from, log }: MailerOptions): Mailer {
  if (!smtpUrl) {
    return {
      delivers: false,
      // What the recipient would act on (the link and the code), so that a developer without a mail server can
      // finish every flow from the log; never the rest of the body.
      async send(mail) {
        log.info(
          { mail: { to: mail.to, subject: mail.subject, link: mail.link, ...(mail.code ? { code: mail.code } : {}) } },
          'mail (no SMTP_URL configured)',
        );
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      log.info({ mail: { to: mail.to, subject: mail.subject } }, 'mail sent');
    },
    close: () => transport.close(),
  };
}

/** mailFromAddress builds a From address on the site's host name. */
export function mailFromAddress(siteName: string, siteUrl: string): string {
  let host = 'localhost';
  try {
    host = new URL(siteUrl).hostname || host;
  } catch {
    // siteUrl is validated by the config; keep the fallback for odd values.
  }
  return `${siteName} <no-reply@${host}>`;
}
