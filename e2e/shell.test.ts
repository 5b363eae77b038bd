import path from 'node:path';
import type { Locator, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { register, signIn, signInToDashboard } from './support/console-account.js';
import { openConsolePage, shot, type Theme, type Viewport } from './support/console-page.js';
import { type ConsoleSession, SCREENSHOT_DIR, screenshot, startConsoleSession } from './support/console-server.js';
import { visible } from './support/console-waits.js';

const skip = browserSkipReason();
const ada = { username: 'ada_lovelace', email: 'ada@example.com', password: 'Engine!1843' };

const LOOKS: ReadonlyArray<readonly [Viewport, Theme, string]> = [
  ['desktop', 'light', 'desktop'],
  ['desktop', 'dark', 'desktop-dark'],
  ['phone', 'light', 'phone'],
  ['phone', 'dark', 'phone-dark'],
];

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** expectToastClearOfGuide checks that a toast sits below the top bar and leaves the guide's Next button free. */
async function expectToastClearOfGuide(page: Page, title: string) {
  const toastBox = await boxOf(page.getByText(title, { exact: true }).locator('xpath=ancestor::li[1]'));
  const topBar = await boxOf(page.locator('header').first());
  expect(toastBox.y).toBeGreaterThanOrEqual(topBar.y + topBar.height);
  const next = await boxOf(page.getByRole('dialog').getByRole('button', { name: 'Next' }));
  expect(overlap(toastBox, next)).toBe(false);
}

/** openPageWhileServerDown cuts the browser off the server, then opens Logs, a page this session has not loaded. */
async function openPageWhileServerDown(page: Page, viewport: Viewport) {
  await page.context().route('**/*', (route) => route.abort('connectionrefused'));
  if (viewport === 'phone') await page.getByRole('button', { name: /open navigation/i }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logs' }).click();
}

const connectionBanner = (page: Page) => page.getByRole('alert').filter({ hasText: /Connection Lost|Reconnecting/ });

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

    // The guide opens once for a new user, while the greeting shows: the toast leaves its Next button free.
    await visible(page.getByRole('dialog').getByRole('button', { name: 'Next' }));
    await expectToastClearOfGuide(page, 'Registration successful');
    await screenshot(page, 'onboarding-toast-desktop');
    // Finishing the guide lands on the dashboard.
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
    await expect.poll(() => page.getByText(/There is no page at this address/).isVisible()).toBe(true);

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

  it('shows sign-in, onboarding and the shell with its menu at 375 px wide, saving screenshots to review', async () => {
    const { page, context } = await session.newPage('phone');
    await page.goto('/auth');
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to Basalt' }).isVisible()).toBe(true);
    await screenshot(page, 'auth-phone');
    await signIn(page, ada);
    await page.waitForURL(`${session.server.url}/`);
    // The onboarding flag is per browser: this fresh context sees the guide once, under the greeting.
    await visible(page.getByRole('dialog').getByRole('button', { name: 'Next' }));
    await expectToastClearOfGuide(page, 'Login successful');
    await screenshot(page, 'onboarding-toast-phone');
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

  it('asks no terms of a new account until the operator sets them, and toasts under the top bar, in every look', async () => {
    for (const [viewport, theme, suffix] of LOOKS) {
      const { page, context } = await openConsolePage(session, viewport, theme);
      await page.goto('/auth?tab=register');
      await visible(page.getByRole('button', { name: 'Create account' }));
      // The terms checkbox and its link come with a terms URL (Settings → Instance; e2e/instance-settings.test.ts).
      expect(await page.getByRole('checkbox', { name: /terms/i }).count()).toBe(0);
      await shot(page, `auth-register-${suffix}`);

      await signIn(page, { email: ada.email, password: 'Wrong!pass1' });
      await visible(page.getByText('Login failed', { exact: true }));
      const toastBox = await boxOf(page.getByText('Login failed', { exact: true }).locator('xpath=ancestor::li[1]'));
      const submit = await boxOf(page.getByRole('button', { name: 'Sign in' }));
      expect(overlap(toastBox, submit)).toBe(false);
      await page.waitForTimeout(300);
      await screenshot(page, `auth-toast-${suffix}`);
      await context.close();
    }
  });

  it('keeps the sidebar beside the whole of a long page, its footer in view as the page scrolls', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page, context } = await openConsolePage(session, 'desktop', theme);
      await signInToDashboard(page, ada);
      await visible(page.getByRole('heading', { name: 'API Endpoints' }));
      const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(pageHeight).toBeGreaterThan(800);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const footer = await boxOf(page.getByTestId('sidebar-footer'));
      expect(footer.y + footer.height).toBeLessThanOrEqual(800);
      expect(footer.y + footer.height).toBeGreaterThan(780);
      const sidebar = await boxOf(page.getByRole('complementary', { name: 'Sidebar' }));
      expect(sidebar.height).toBeGreaterThanOrEqual(pageHeight - 1);
      const suffix = theme === 'dark' ? 'desktop-dark' : 'desktop';
      // What the window shows at the bottom of the page (shot() below photographs the whole page from the top).
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `shell-scrolled-${suffix}.png`) });
      await shot(page, `shell-long-page-${suffix}`);
      await context.close();
    }
  });

  it('keeps the shell when the server goes away, and says so without the person acting', async () => {
    for (const [viewport, theme, suffix] of LOOKS) {
      const { page, context } = await openConsolePage(session, viewport, theme);
      await signInToDashboard(page, ada);
      await openPageWhileServerDown(page, viewport);
      // The page's own place says what happened, in words; the shell and the banner stay.
      const failed = page.getByRole('main').getByRole('alert');
      await visible(failed.getByText('This page could not be loaded'));
      expect(await failed.innerText()).not.toMatch(/dynamically imported|https?:|assets\//);
      expect(await page.getByText('Something went wrong').count()).toBe(0);
      await visible(connectionBanner(page));
      if (viewport === 'desktop') await visible(page.getByRole('navigation', { name: 'Main' }));
      else await visible(page.getByRole('button', { name: /open navigation/i }));
      // While it retries, the attempt count stays on one line, beside the title.
      await visible(page.getByText('Reconnecting...', { exact: true }));
      const title = await boxOf(page.getByText('Reconnecting...', { exact: true }));
      const count = await boxOf(page.getByText(/^\(\d+\/10\)$/));
      expect(count.height).toBeLessThan(20);
      expect(count.y).toBeGreaterThanOrEqual(title.y);
      expect(count.y + count.height).toBeLessThanOrEqual(title.y + title.height + 1);
      await shot(page, `server-down-${suffix}`);

      if (suffix === 'desktop') {
        // The server is back: the banner goes, and Try Again loads the page.
        await context.unroute('**/*');
        await connectionBanner(page).waitFor({ state: 'hidden', timeout: 30_000 });
        const tryAgain = page.getByRole('button', { name: 'Try Again' });
        if (await tryAgain.isVisible()) await tryAgain.click();
        await visible(page.getByRole('heading', { level: 1, name: 'System Logs' }));

        // Only cached data on screen, no request of its own: the banner still comes when the server goes. A server
        // that goes takes its realtime socket with it: the page's socket is opened again through a route that
        // can close it.
        const sockets: WebSocketRoute[] = [];
        await context.routeWebSocket(/\/realtime\/v1\//, (socket) => {
          socket.connectToServer();
          sockets.push(socket);
        });
        await page.reload();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
        await visible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
        await page.waitForTimeout(500);
        await context.route('**/*', (route) => route.abort('connectionrefused'));
        for (const socket of sockets) await socket.close();
        await connectionBanner(page).waitFor({ state: 'visible', timeout: 25_000 });
        await screenshot(page, 'connection-lost-idle-desktop');
        await context.unroute('**/*');
      }
      await context.close();
    }
  });
});
