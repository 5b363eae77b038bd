import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailbox, type TestMailbox } from '../packages/server/src/testing/auth-mail.fixtures.js';
import { browserSkipReason } from './support/chromium.js';
import { dashboard, register, signIn } from './support/console-account.js';
import { openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// A forgotten console password, end to end with a real SMTP server: the reset mail's link opens a page that sets
// the new password without asking for the old one, then the person is on the Dashboard and the new password
// signs in; screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };
const NEW_PASSWORD = 'Analytical#1852';

describe.skipIf(skip)('resetting a forgotten console password in Chromium', () => {
  let mailbox: TestMailbox;
  let session: ConsoleSession;
  beforeAll(async () => {
    mailbox = await startMailbox();
    session = await startConsoleSession('sqlite', { smtpUrl: mailbox.url });
  });
  afterAll(async () => {
    await session?.close();
    await mailbox?.close();
  });

  it('mails a link that opens "Set a new password", then signs in with the new password', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    // With SMTP the address is confirmed first, through its mail.
    await register(page, ada);
    await toast(page, 'Registration successful');
    await page.goto((await mailbox.latest(ada.email)).link);
    await dashboard(page);
    await page.evaluate(() => localStorage.clear());
    await context.clearCookies();

    await page.goto('/auth');
    await page.getByLabel('Email').fill(ada.email);
    const sent = mailbox.mails.length;
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await toast(page, 'Check your email');
    await expect.poll(() => mailbox.mails.length).toBe(sent + 1);
    const mail = await mailbox.latest(ada.email);
    expect(mail.subject).toBe('Reset your password');

    await page.goto(mail.link);
    const form = page.getByRole('form', { name: 'Set a new password' });
    await visible(form);
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    // No current password is asked: the person forgot it.
    expect(await form.getByLabel('Current password').count()).toBe(0);
    await form.getByLabel('New password', { exact: true }).fill('short');
    await form.getByLabel('Confirm new password').fill('short');
    await form.getByRole('button', { name: 'Set password' }).click();
    await visible(form.getByText('Password must be at least 8 characters'));
    await shot(page, 'reset-password-errors-desktop');
    await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await shot(page, 'reset-password-desktop');
    await form.getByRole('button', { name: 'Set password' }).click();
    await toast(page, 'Password updated');
    await dashboard(page);

    // The old password no longer signs in, the new one does.
    await page.evaluate(() => localStorage.clear());
    await signIn(page, ada);
    await toast(page, 'Login failed');
    await signIn(page, { email: ada.email, password: NEW_PASSWORD });
    await dashboard(page);
    await context.close();
  });

  it('lands on the reset page even when the link leads to the site root, and refuses a used link', async () => {
    const { page, context } = await openConsolePage(session, 'phone');
    // Reset mails go out once a minute per address: another person, signed up and confirmed through the API.
    const bob = 'bob@example.com';
    const post = (path: string, body: unknown) =>
      fetch(`${session.server.url}/auth/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: session.server.anonKey },
        body: JSON.stringify(body),
      });
    expect((await post('signup', { email: bob, password: 'Babbage!1791', data: { username: 'bob' } })).status).toBe(
      200,
    );
    expect((await fetch((await mailbox.latest(bob)).link, { redirect: 'manual' })).status).toBe(303);
    expect((await post('recover', { email: bob })).status).toBe(200);
    await expect.poll(async () => (await mailbox.latest(bob)).subject).toBe('Reset your password');
    const link = new URL((await mailbox.latest(bob)).link);
    // An older client's link without redirect_to lands on SITE_URL's root: still the reset page, not the Dashboard.
    link.searchParams.delete('redirect_to');
    await page.goto(link.toString());
    await visible(page.getByRole('form', { name: 'Set a new password' }));
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    await shot(page, 'reset-password-phone');

    // The same link again: refused, with the way back to sign in.
    await page.evaluate(() => localStorage.clear());
    link.searchParams.set('redirect_to', `${session.server.url}/reset-password`);
    await page.goto(link.toString());
    await visible(page.getByRole('alert').getByText(/invalid or has expired/));
    await visible(page.getByRole('link', { name: 'Back to sign in' }));
    await context.close();

    for (const viewport of ['desktop', 'phone'] as const) {
      const dark = await openConsolePage(session, viewport, 'dark');
      await dark.page.goto(
        '/reset-password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      );
      await visible(dark.page.getByRole('alert'));
      await shot(dark.page, `reset-password-expired-${viewport}-dark`);
      await dark.context.close();
    }
  });
});
