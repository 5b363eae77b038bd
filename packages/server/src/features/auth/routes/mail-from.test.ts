import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { keyHeaders, startAuthServer, users } from '../../../testing/auth.fixtures.js';
import { startMailbox, type TestMailbox } from '../../../testing/auth-mail.fixtures.js';
import type { TestServer } from '../../../testing/test-server.js';

// SMTP_FROM: the operator's own sender on every mail, through a real SMTP server; a value that is no address, or
// that would add a header, stops the start with the variable's name.

describe('SMTP_FROM', () => {
  let mailbox: TestMailbox;
  let server: TestServer;
  beforeAll(async () => {
    mailbox = await startMailbox();
    const config = loadConfig({ SMTP_FROM: ' Acme Accounts <auth@acme.example> ' });
    server = await startAuthServer('sqlite', { smtpUrl: mailbox.url, smtpFrom: config.smtpFrom });
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
  });

  it('sends the mails from the configured address', async () => {
    const signUp = await server.request('POST', '/auth/v1/signup', {
      headers: keyHeaders(server.anonKey),
      json: { email: users.alice.email, password: users.alice.password },
    });
    expect(signUp.status).toBe(200);
    const mail = await mailbox.latest(users.alice.email);
    expect(mail.from).toBe('Acme Accounts <auth@acme.example>');
  });

  it('defaults to no-reply at the site host, and refuses what is not an address', () => {
    expect(loadConfig({}).smtpFrom).toBeNull();
    expect(loadConfig({ SMTP_FROM: 'auth@acme.example' }).smtpFrom).toBe('auth@acme.example');
    for (const bad of [
      'not an address',
      'auth@acme.example\r\nBcc: victim@example.com',
      'Acme <>',
      `${'a'.repeat(400)}@x.y`,
    ]) {
      expect(() => loadConfig({ SMTP_FROM: bad }), bad).toThrow(/SMTP_FROM/);
    }
  });
});
