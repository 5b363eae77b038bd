import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startMailbox } from '../../testing/auth-mail.fixtures.js';
import { createMailer, mailFromAddress } from './mailer.js';

// A real pino logger writing into an array, so the test sees exactly what would reach the log.
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('createMailer', () => {
  it('writes the recipient, subject, link and code to the log when no SMTP is configured, never the body', async () => {
    const { log, lines } = capturingLogger();
    const mailer = createMailer({ smtpUrl: null, from: 'Basalt <no-reply@localhost>', log });
    expect(mailer.delivers).toBe(false);
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Hi',
      text: 'Your code: 123456 and a secret paragraph',
      link: 'http://x/verify?token=t',
      code: '123456',
    });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      mail: { to: 'ada@example.com', subject: 'Hi', link: 'http://x/verify?token=t', code: '123456' },
    });
    expect(lines[0]).not.toContain('secret paragraph');
  });

  it('delivers over SMTP and logs no link', async () => {
    const mailbox = await startMailbox();
    const { log, lines } = capturingLogger();
    const mailer = createMailer({
      smtpUrl: mailbox.url,
      from: mailFromAddress('Basalt', 'https://basalt.example'),
      log,
    });
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Hello',
      text: 'Open https://basalt.example/auth/v1/verify?token=abc\nYour code: 123456',
      link: 'https://basalt.example/auth/v1/verify?token=abc',
    });
    const mail = await mailbox.latest('ada@example.com');
    expect(mail).toMatchObject({
      subject: 'Hello',
      code: '123456',
      link: 'https://basalt.example/auth/v1/verify?token=abc',
    });
    expect(mail.text).toContain('From: Basalt <no-reply@basalt.example>');
    expect(lines.join('')).not.toContain('token=abc');
    mailer.close();
    await mailbox.close();
  });
});
