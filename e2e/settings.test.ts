import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn, signIn, signInToDashboard } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, VISIBLE, visible } from './support/console-waits.js';

// Settings and System Logs as an account holder uses them: change the profile (and meet a taken username),
// change the password and sign in with the new one, switch the theme, run a health check, filter and export
// the logs, page through /logs, and delete the account. Screenshots at desktop and 375 px, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_lovelace', email: 'ada@example.com', password: 'Engine!1843' };
// What ada becomes in the profile and password steps.
const adaLater = { username: 'ada_l', email: 'ada.l@example.com', password: 'Engine!1852' };
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };
const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

async function openSettings(page: Page, tab: string) {
  await page.goto(tab === 'Profile' ? '/settings' : `/settings?tab=${tab.toLowerCase()}`);
  await visible(page.getByRole('tab', { name: tab, selected: true }));
}

/** failHealthChecks makes Run Health Check fail as a server in trouble would answer it. */
function failHealthChecks(page: Page) {
  return page.route('**/api/health/database/check', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'The database file is locked' }),
    }),
  );
}

/** healthCheckFailed waits for the health card to show the failed check instead of the last good answer. */
async function healthCheckFailed(page: Page) {
  await visible(
    page.getByRole('alert').filter({ hasText: 'Error checking database health: The database file is locked' }),
  );
  await visible(page.getByText('Error', { exact: true }));
  expect(await page.getByText('Database connection is healthy').count()).toBe(0);
  expect(await page.getByText('Connection use').count()).toBe(0);
}

describe.skipIf(skip)('Settings and System Logs in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    // One entry per request, as soon as it is stored: these tests read the screen, not the request summaries
    // (logs.request-summaries.test.ts), whose entries come up to a window later.
    session = await startConsoleSession('sqlite', { logRequests: 'all' });
    // grace holds the username ada will try to take; she signs up through the auth API.
    const signup = await session.server.request('POST', '/auth/v1/signup', {
      headers: { apikey: session.server.anonKey },
      json: { email: grace.email, password: grace.password, data: { username: grace.username } },
    });
    expect(signup.status).toBe(200);
  });
  afterAll(() => session?.close());

  it('changes the profile, refusing a taken username', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
    const username = page.getByRole('textbox', { name: 'Username' });
    const email = page.getByRole('textbox', { name: 'Email' });
    const save = page.getByRole('button', { name: 'Save' });
    await expect.poll(() => username.inputValue(), VISIBLE).toBe(ada.username);
    expect(await email.inputValue()).toBe(ada.email);
    expect(await save.isDisabled()).toBe(true);
    await shot(page, 'settings-profile-desktop');

    // The spec's messages, before anything is sent.
    await username.fill('ad');
    await email.fill('not-an-email');
    await save.click();
    await visible(page.getByText('Username must be at least 3 characters'));
    await visible(page.getByText('Please enter a valid email address'));

    // A username another account holds: a 409 whose message shows under the field and in the toast.
    await username.fill(grace.username);
    await email.fill(ada.email);
    await save.click();
    await toast(page, 'Update Failed');
    await visible(page.getByRole('alert').getByText('This username is already taken'));

    await username.fill(adaLater.username);
    await email.fill(adaLater.email);
    await page.getByRole('switch', { name: 'Marketing emails' }).click();
    await save.click();
    await toast(page, 'Profile Updated');
    await expect.poll(() => save.isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('sidebar-footer').textContent(), VISIBLE).toContain(adaLater.username);
    await expect.poll(() => page.getByTestId('sidebar-footer').textContent()).toContain(adaLater.email);

    await page.reload();
    await expect.poll(() => username.inputValue(), VISIBLE).toBe(adaLater.username);
    expect(await email.inputValue()).toBe(adaLater.email);
    expect(await page.getByRole('switch', { name: 'Marketing emails' }).getAttribute('aria-checked')).toBe('true');
    await context.close();
  });

  it('changes the password, and the new one signs in', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, { email: adaLater.email, password: ada.password });
    await openSettings(page, 'Account');
    // Settings is the page's item in the sidebar; Authentication only leads to this tab.
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'Authentication' }).getAttribute('aria-current')).toBeNull();
    const current = page.getByLabel('Current password');
    const next = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password');
    const update = page.getByRole('button', { name: 'Update Password' });

    await update.click();
    await visible(page.getByText('Current password is required'));
    await current.fill(ada.password);
    await next.fill(adaLater.password);
    await confirm.fill(`${adaLater.password}x`);
    await update.click();
    await visible(page.getByText('Passwords do not match'));
    await shot(page, 'settings-account-desktop');

    // A wrong current password is refused by the server.
    await current.fill('Wrong!pass1');
    await confirm.fill(adaLater.password);
    await update.click();
    await toast(page, 'Password Update Failed');
    await visible(page.getByRole('alert').getByText('Current password is incorrect'));

    await current.fill(ada.password);
    await update.click();
    await toast(page, 'Password Updated');
    await expect.poll(() => current.inputValue()).toBe('');

    // This session stays; after logging out, the old password no longer works and the new one does.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/auth');
    await signIn(page, { email: adaLater.email, password: ada.password });
    await toast(page, 'Login failed');
    await signInToDashboard(page, adaLater);
    await context.close();
  });

  it('switches the theme, shared with the top bar toggle', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, adaLater);
    await openSettings(page, 'Appearance');
    const themes = page.getByRole('radiogroup', { name: 'Theme' });
    expect(await themes.getByRole('radio', { name: 'Light' }).getAttribute('aria-checked')).toBe('true');
    await themes.getByRole('radio', { name: 'Dark' }).click();
    await expect.poll(() => isDark(page)).toBe(true);
    await shot(page, 'settings-appearance-desktop-dark');
    await page.reload();
    await expect.poll(() => isDark(page), VISIBLE).toBe(true);
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await expect.poll(() => isDark(page)).toBe(false);
    await expect.poll(() => themes.getByRole('radio', { name: 'Light' }).getAttribute('aria-checked')).toBe('true');
    await page.emulateMedia({ colorScheme: 'dark' });
    await themes.getByRole('radio', { name: 'System' }).click();
    await expect.poll(() => isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => isDark(page)).toBe(false);
    await shot(page, 'settings-appearance-desktop');
    await context.close();
  });

  it('checks the database health and shows the database in use', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, adaLater);
    await openSettings(page, 'Database');
    await visible(page.getByText('Connected', { exact: true }));
    await visible(page.getByText(/SQLite \d/));
    const engine = page.getByRole('region', { name: 'Database engine in use' });
    expect(await engine.textContent()).toContain('SQLite');
    await visible(page.getByRole('heading', { name: 'Moving to PostgreSQL' }));
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Run Health Check' }).click();
    const integrity = page.getByRole('region', { name: 'Integrity check' });
    await visible(integrity.getByText(/Integrity check passed/));
    await visible(page.getByText('Connected', { exact: true }));
    await shot(page, 'settings-database-desktop');

    // A check that fails shows its error, not the older figures beside an Error badge.
    await failHealthChecks(page);
    await page.getByRole('button', { name: 'Run Health Check' }).click();
    await healthCheckFailed(page);
    await shot(page, 'settings-database-error-desktop');
    await context.close();
  });

  it('filters the logs and exports what is shown', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, adaLater);
    await openSettings(page, 'Logs');
    const list = page.getByRole('list', { name: 'Log entries' });
    await visible(list.getByText('PATCH /api/user/profile 200'));

    // The refused username (409) and the wrong password (400) were warnings.
    await page.getByRole('combobox', { name: 'Level' }).selectOption('warn');
    await visible(list.getByText('PATCH /api/user/profile 409'));
    await visible(list.getByText('POST /api/user/change-password 400'));
    expect(await list.getByText('PATCH /api/user/profile 200').count()).toBe(0);
    // The search is case-insensitive and reads the path too.
    await page.getByRole('searchbox', { name: 'Search logs' }).fill('CHANGE-PASSWORD');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await shot(page, 'settings-logs-desktop');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^basalt-logs-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await fs.readFile(await download.path(), 'utf8'));
    expect(exported).toEqual([
      expect.objectContaining({ level: 'warn', message: 'POST /api/user/change-password 400' }),
    ]);
    await context.close();
  });

  it('pages through the System Logs', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, adaLater);
    // Enough entries for several pages: each API request is one.
    const token = await accessToken(page);
    for (let i = 0; i < 120; i++) {
      const res = await fetch(`${session.server.url}/api/stats`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    }
    // The server stores its log entries in batches, at least once a second.
    await page.waitForTimeout(1500);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logs' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'System Logs' }));
    const table = page.getByRole('table', { name: 'System logs' });
    await visible(table.getByRole('cell', { name: /GET \/api\/stats 200/ }));
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Timestamp',
      'Level',
      'Service',
      'Message',
    ]);
    expect(await table.getByRole('row').count()).toBe(21);
    await visible(table.getByText('just now'));

    // Every request is logged, this page's own too, so the count grows as we page: each check reads the
    // count shown and expects the first page, the last and the current one's neighbours, with gaps between.
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const pagerState = async () => {
      const entries = Number((await pager.getByText(/entries$/).textContent())?.replace(/\D/g, ''));
      const totalPages = Math.ceil(entries / 20);
      const current = Number(await pager.locator('[aria-current="page"]').textContent());
      const shown = await pager.getByRole('button', { name: /^Page \d+$/ }).allTextContents();
      const wanted = [...new Set([1, current - 1, current, current + 1, totalPages])]
        .filter((n) => n >= 1 && n <= totalPages)
        .sort((a, b) => a - b);
      const gaps = wanted.filter((n, i) => i > 0 && n - (wanted[i - 1] ?? n) > 1).length;
      return { current, totalPages, rule: shown.join(' ') === wanted.join(' '), gaps };
    };
    const goTo = async (label: string) => {
      await pager.getByRole('button', { name: label }).click();
    };

    const start = await pagerState();
    expect(start).toMatchObject({ current: 1, rule: true, gaps: 1 });
    expect(start.totalPages).toBeGreaterThanOrEqual(7);
    expect(await pager.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await shot(page, 'logs-desktop');

    await goTo(`Page ${start.totalPages}`);
    await page.waitForURL(`**/logs?page=${start.totalPages}`);
    await expect.poll(pagerState).toMatchObject({ current: start.totalPages, rule: true });
    await goTo('Previous page');
    await expect.poll(async () => (await pagerState()).current).toBe(start.totalPages - 1);
    await goTo(`Page ${start.totalPages - 2}`);
    await expect.poll(pagerState).toMatchObject({ current: start.totalPages - 2, rule: true });
    await goTo(`Page ${start.totalPages - 3}`);
    await expect.poll(pagerState).toMatchObject({ current: start.totalPages - 3, rule: true, gaps: 2 });
    expect(await pager.getByText('…').count()).toBe(2);
    await shot(page, 'logs-middle-desktop');
    await context.close();
  });

  it('shows every settings tab and the logs page at 375 px wide and in the dark theme, saving screenshots to review', () =>
    forEachLook(session, adaLater, async (page, suffix) => {
      for (const tab of ['Profile', 'Account', 'Appearance', 'Database', 'Logs']) {
        await openSettings(page, tab);
        await visible(page.getByRole('tabpanel'));
        if (tab === 'Profile') await visible(page.getByRole('textbox', { name: 'Username' }));
        if (tab === 'Database') await visible(page.getByText('Connected', { exact: true }));
        if (tab === 'Logs') await visible(page.getByRole('list', { name: 'Log entries' }));
        await page.waitForTimeout(200);
        await shot(page, `settings-${tab.toLowerCase()}-${suffix}`);
        if (tab === 'Database') {
          await failHealthChecks(page);
          await page.getByRole('button', { name: 'Run Health Check' }).click();
          await healthCheckFailed(page);
          await shot(page, `settings-database-error-${suffix}`);
          await page.unroute('**/api/health/database/check');
        }
      }
      await page.goto('/logs');
      await visible(page.getByRole('navigation', { name: 'Pages' }));
      await shot(page, `logs-${suffix}`);
    }));

  it('deletes an account after the username is typed', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, grace);
    await openSettings(page, 'Account');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await visible(dialog);
    const confirm = dialog.getByRole('button', { name: 'Delete Account' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: `Type ${grace.username} to confirm` }).fill('GRACE_H');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill(grace.username);
    await shot(page, 'settings-delete-account-desktop');
    await confirm.click();
    await page.waitForURL('**/auth', VISIBLE);
    await toast(page, 'Account deleted');

    // The account is gone: its password no longer signs in.
    await signIn(page, grace);
    await toast(page, 'Login failed');
    expect(page.url()).toMatch(/\/auth$/);
    await context.close();
  });
});

describe.skipIf(skip || !process.env.TEST_DATABASE_URL)('Settings › Database on PostgreSQL', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession('postgres');
  });
  afterAll(() => session?.close());

  it('shows PostgreSQL as the database in use', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    await openSettings(page, 'Database');
    await visible(page.getByText('Connected', { exact: true }));
    await visible(page.getByText(/PostgreSQL \d/));
    expect(await page.getByRole('region', { name: 'Database engine in use' }).textContent()).toContain('PostgreSQL');
    await visible(page.getByRole('heading', { name: 'Moving to SQLite' }));
    await page.getByRole('button', { name: 'Run Health Check' }).click();
    await visible(page.getByRole('region', { name: 'Integrity check' }));
    await shot(page, 'settings-database-postgres-desktop');
    await context.close();
  });
});
