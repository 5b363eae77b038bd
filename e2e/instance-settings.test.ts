import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// What an operator sets for the whole instance (Settings → Instance: console sign-ups, the terms URL) and what a
// developer sets for their app's users (API page: the password policy), as a person does it in Chromium, with
// screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };

describe.skipIf(skip)('instance and app settings in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('closes sign-ups and sets the terms URL; the sign-in page follows', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    // Without terms, registration asks to accept nothing.
    await page.goto('/auth?tab=register');
    await visible(page.getByRole('button', { name: 'Create account' }));
    expect(await page.getByRole('checkbox', { name: /terms/i }).count()).toBe(0);
    await registerAndSignIn(page, ada);

    await page.goto('/settings?tab=instance');
    const form = page.getByRole('form', { name: 'Instance settings' });
    await visible(form);
    await form.getByLabel('Terms and conditions URL').fill('javascript:alert(1)');
    await form.getByRole('button', { name: 'Save' }).click();
    await visible(form.getByText('The terms URL must be an http(s) address'));
    await form.getByLabel('Terms and conditions URL').fill('https://example.com/terms');
    await form.getByRole('switch', { name: 'Allow new accounts to sign up' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Instance settings saved');
    await shot(page, 'settings-instance-desktop');
    await context.close();

    const visitor = await openConsolePage(session, 'phone');
    await visitor.page.goto('/auth?tab=register');
    await visible(
      visitor.page.getByText('Sign-ups are closed on this instance. Ask its administrator for an account.'),
    );
    expect(await visitor.page.getByRole('tab', { name: 'Register' }).count()).toBe(0);
    await shot(visitor.page, 'auth-signups-closed-phone');
    await visitor.context.close();

    for (const [viewport, theme] of [
      ['phone', 'light'],
      ['phone', 'dark'],
      ['desktop', 'dark'],
    ] as const) {
      const look = await openConsolePage(session, viewport, theme);
      await signInToDashboard(look.page, ada);
      await look.page.goto('/settings?tab=instance');
      await visible(look.page.getByRole('form', { name: 'Instance settings' }));
      await shot(look.page, `settings-instance-${viewport}${theme === 'dark' ? '-dark' : ''}`);
      await look.context.close();
    }

    // Open again: registration is back, with the operator's terms to accept.
    const admin = await openConsolePage(session, 'desktop');
    await signInToDashboard(admin.page, ada);
    await admin.page.goto('/settings?tab=instance');
    const again = admin.page.getByRole('form', { name: 'Instance settings' });
    await visible(again);
    await again.getByRole('switch', { name: 'Allow new accounts to sign up' }).click();
    await again.getByRole('button', { name: 'Save' }).click();
    await toast(admin.page, 'Instance settings saved');
    await admin.context.close();
    const newcomer = await openConsolePage(session, 'desktop', 'dark');
    await newcomer.page.goto('/auth?tab=register');
    const terms = newcomer.page.getByRole('link', { name: 'terms and conditions' });
    await visible(terms);
    expect(await terms.getAttribute('href')).toBe('https://example.com/terms');
    await shot(newcomer.page, 'auth-register-terms-desktop-dark');
    await newcomer.context.close();
  });

  it("sets the app users' password policy on the API page", async () => {
    for (const [viewport, theme] of [
      ['desktop', 'light'],
      ['phone', 'light'],
      ['phone', 'dark'],
      ['desktop', 'dark'],
    ] as const) {
      const { page, context } = await openConsolePage(session, viewport, theme);
      await signInToDashboard(page, ada);
      await page.goto('/api');
      const form = page.getByRole('form', { name: 'App auth settings' });
      await visible(form);
      const length = form.getByLabel('Minimum password length');
      await length.scrollIntoViewIfNeeded();
      if (viewport === 'desktop' && theme === 'light') {
        expect(await length.inputValue()).toBe('6');
        await length.fill('5');
        await visible(form.getByText('The minimum password length must be at least 6'));
        await length.fill('10');
        await form.getByLabel('Required characters').selectOption('lower_upper_digits');
        await form.getByRole('button', { name: 'Save' }).click();
        await toast(page, 'App settings saved');
      }
      await form.getByLabel('Required characters').scrollIntoViewIfNeeded();
      await page.screenshot({
        path: `e2e/screenshots/api-password-policy-${viewport}${theme === 'dark' ? '-dark' : ''}.png`,
      });
      await context.close();
    }
  });
});
