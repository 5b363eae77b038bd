import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { register, signIn } from './support/console-account.js';
import { type ConsoleSession, screenshot, startConsoleSession } from './support/console-server.js';

const skip = browserSkipReason();
const ada = { username: 'ada_lovelace', email: 'ada@example.com', password: 'Engine!1843' };

async function finishOnboarding(page: Page) {
  const guide = page.getByRole('dialog');
  await expect.poll(() => guide.isVisible(), { timeout: 15_000 }).toBe(true);
  for (let step = 0; step < 4; step++) await guide.getByRole('button', { name: 'Next' }).click();
  await guide.getByRole('button', { name: 'Get Started!' }).click();
  await expect.poll(() => guide.isVisible()).toBe(false);
}

describe.skipIf(skip)('the console shell in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('takes a new user from registration through the shell and back', async () => {
    const { page, context } = await session.newPage('desktop');
    await page.goto('/');
    await page.waitForURL('**/auth');
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to Basalt' }).isVisible()).toBe(true);
    await screenshot(page, 'auth-desktop');

    await register(page, ada);
    await expect
      .poll(() => page.getByText('Registration successful').first().isVisible(), { timeout: 15_000 })
      .toBe(true);

    // The guide opens once for a new user; finishing it lands on the dashboard.
    await finishOnboarding(page);
    await page.waitForURL(`${session.server.url}/`);
    const footer = page.getByTestId('sidebar-footer');
    await expect.poll(() => footer.textContent()).toContain(ada.username);
    await expect.poll(() => footer.textContent()).toContain(ada.email);
    await expect.poll(() => footer.textContent()).toContain('AD');
    await screenshot(page, 'shell-desktop');

    await page.reload();
    await expect.poll(() => footer.isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // The theme toggle persists across a reload.
    const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
    await page.getByRole('button', { name: /toggle theme/i }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(!wasDark);
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(!wasDark);
    await screenshot(page, wasDark ? 'shell-desktop-light' : 'shell-desktop-dark');

    // Unknown paths show the not-found page.
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByText('404 Page Not Found').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);

    // Log out from the account menu.
    await page.goto('/');
    await page.getByRole('button', { name: /account menu/i }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/auth');
    await expect.poll(() => page.getByText('Logged out').first().isVisible()).toBe(true);

    // A protected page while signed out sends the person to /auth.
    await page.goto('/settings');
    await page.waitForURL('**/auth');

    // A wrong password shows the failure toast; the right one signs in.
    await signIn(page, { email: ada.email, password: 'Wrong!pass1' });
    await expect.poll(() => page.getByText('Login failed').first().isVisible(), { timeout: 15_000 }).toBe(true);
    await signIn(page, ada);
    await page.waitForURL(`${session.server.url}/`);
    await expect.poll(() => page.getByText('Login successful').first().isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });

  it('looks finished at 375 px wide', async () => {
    const { page, context } = await session.newPage('phone');
    await page.goto('/auth');
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to Basalt' }).isVisible()).toBe(true);
    await screenshot(page, 'auth-phone');
    await signIn(page, ada);
    await page.waitForURL(`${session.server.url}/`);
    // The onboarding flag is per browser: this fresh context sees the guide once.
    await finishOnboarding(page);
    await screenshot(page, 'shell-phone');
    // On a phone the sidebar is a slide-over opened from the top bar, closed by navigating.
    await page.getByRole('button', { name: /open navigation/i }).click();
    const nav = page.getByRole('navigation', { name: /main/i });
    await expect.poll(() => nav.isVisible()).toBe(true);
    // Wait for the slide-in to finish so the screenshot shows the panel as a person sees it.
    await expect.poll(async () => (await nav.boundingBox())?.x).toBe(0);
    await screenshot(page, 'shell-phone-menu');
    await nav.getByRole('link', { name: 'Tables' }).click();
    await page.waitForURL('**/tables');
    await expect.poll(() => nav.isVisible()).toBe(false);
    await context.close();
  });
});
