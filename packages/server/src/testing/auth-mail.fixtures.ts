import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** ReceivedMail is one message the test SMTP server accepted, with its text decoded. */
export interface ReceivedMail {
  to: string[];
  /** The From header as sent. */
  from: string;
  subject: string;
  text: string;
  /** The verification link in the mail. */
  link: string;
  /** The 6-digit code in the mail. */
  code: string;
}

/** TestMailbox is a real SMTP server on 127.0.0.1 that keeps every message. */
export interface TestMailbox {
  url: string;
  mails: ReceivedMail[];
  /** latest returns the newest mail to `to`, waiting up to two seconds for a first one. */
  latest(to: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

// nodemailer sends text parts quoted-printable: undo soft line breaks and =XX escapes.
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function parseMail(raw: string, to: string[]): ReceivedMail {
  const text = decodeQuotedPrintable(raw);
  return {
    to,
    from: /^From: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
    subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
    text,
    link: /(https?:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(text)?.[1] ?? '',
    code: /code: (\d{6})/.exec(text)?.[1] ?? '',
  };
}

/** startMailbox starts the SMTP server on a random port (no TLS, no auth). */
export async function startMailbox(): Promise<TestMailbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), to));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async latest(to) {
      for (let i = 0; i < 100; i++) {
        const mail = mails.findLast((m) => m.to.includes(to));
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no mail to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
