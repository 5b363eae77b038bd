import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { openConsolePage, type Theme, type Viewport } from './support/console-page.js';
import { type ConsoleSession, screenshot, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, visible } from './support/console-waits.js';

// What covers what, as a person sees it at 1280 and 375 px, light and dark: a toast takes room and covers nothing
// of the page or of a dialog opened under it; the schema canvas's minimap stays clear of the Undo and help
// buttons; Billing's tabs scroll with a hint at 375 px; the New Project card's fields keep their padding.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };

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

const toastBoxOf = (page: Page, title: string) =>
  boxOf(page.getByText(title, { exact: true }).locator('xpath=ancestor::li[1]'));

/** expectClearOfToast checks that nothing one reads or presses in the page, or an open dialog, is under the toast. */
async function expectClearOfToast(page: Page, title: string): Promise<void> {
  const toastBox = await toastBoxOf(page, title);
  const dialog = page.getByRole('dialog');
  if (await dialog.isVisible()) {
    expect((await boxOf(dialog.first())).y).toBeGreaterThanOrEqual(toastBox.y + toastBox.height);
    return;
  }
  const parts = page
    .getByRole('main')
    .locator('h1, h2, h3, p, button, a, input, select, textarea, [role="tab"], [role="combobox"]');
  for (let i = 0; i < (await parts.count()); i++) {
    const part = parts.nth(i);
    const box = await part.boundingBox();
    if (!box || box.width === 0 || !(await part.isVisible())) continue;
    const covered = overlap(toastBox, box);
    expect(covered, `"${title}" covers ${await part.evaluate((e) => e.outerHTML.slice(0, 120))}`).toBe(false);
  }
}

describe.skipIf(skip)('nothing covers the page in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    await context.close();
  });
  afterAll(() => session?.close());

  it('gives each toast room of its own: pages and dialogs move below it', async () => {
    for (const [viewport, theme, suffix] of LOOKS) {
      const { page, context } = await openConsolePage(session, viewport, theme);
      await signInToDashboard(page, ada);

      // A brand-new project lands on the Schema Editor with "Project created": no warning replaces it (its layout
      // does not exist yet, a blank canvas), and its selector and title are in the clear.
      await page.goto('/projects/new');
      await page.getByLabel('Name').fill(`Project ${suffix}`);
      await page.getByRole('button', { name: 'Create Project' }).click();
      await page.waitForURL(/\/schema-editor/);
      await toast(page, 'Project created');
      await visible(page.getByRole('combobox', { name: 'Project' }));
      await expectClearOfToast(page, 'Project created');
      await screenshot(page, `toast-schema-editor-${suffix}`);
      await visible(page.getByRole('status').filter({ hasText: 'Connected' }));
      expect(await page.getByText(/Could not load the schema layout/).count()).toBe(0);

      // SQL Execution: a connection added.
      await page.goto('/sql-execution');
      await page.getByRole('button', { name: 'Add' }).click();
      const adding = page.getByRole('dialog', { name: 'Add database connection' });
      await adding.getByLabel('Name').fill(`warehouse ${suffix}`);
      await adding.getByLabel('Connection string').fill('postgres://app:secret@db.example.com:5432/app');
      await adding.getByRole('button', { name: 'Add connection' }).click();
      await toast(page, 'Connection added');
      await expectClearOfToast(page, 'Connection added');
      await screenshot(page, `toast-sql-${suffix}`);

      // Billing: a plan assigned on the Accounts tab leaves the tabs in the clear.
      await page.goto('/billing?tab=accounts');
      await page.getByRole('combobox', { name: `Plan of ${ada.email}` }).selectOption('starter');
      await toast(page, 'Plan assigned');
      await expectClearOfToast(page, 'Plan assigned');
      await screenshot(page, `toast-billing-${suffix}`);

      // A dialog opened while a toast shows starts below it.
      await page.goto('/edge-functions');
      await page.getByRole('button', { name: 'Create Function' }).first().click();
      const create = page.getByRole('dialog', { name: 'Create Edge Function' });
      await create.getByLabel('Name').fill(`fn-${suffix.replace('-', '')}`);
      await create.getByLabel('Route').fill(`/api/edge/fn-${suffix.replace('-', '')}`);
      await create.getByRole('button', { name: 'Create Function' }).click();
      await toast(page, 'Edge function created');
      await page.getByRole('button', { name: 'Edit' }).first().click();
      await settledDialog(page.getByRole('dialog'));
      await expectClearOfToast(page, 'Edge function created');
      await screenshot(page, `toast-dialog-${suffix}`);
      await context.close();
    }
  });

  it('keeps the minimap clear of help, the New Project card padded, Billing’s tabs scrolling with a hint', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, ada);
    await page.goto('/projects/new');
    const card = page.locator('form').locator('xpath=ancestor::div[contains(@class,"rounded-xl")][1]');
    const name = page.getByText('Name', { exact: true });
    expect((await boxOf(name)).y - (await boxOf(card)).y).toBeGreaterThanOrEqual(16);
    // Undo shows only after something that can be undone (e2e/undo.test.ts); Help is always there.
    await page.goto('/schema-editor');
    const minimap = page.locator('.react-flow__minimap');
    await visible(minimap);
    expect(await page.getByRole('button', { name: 'Undo', exact: true }).count()).toBe(0);
    expect(overlap(await boxOf(minimap), await boxOf(page.getByRole('button', { name: 'Help' })))).toBe(false);
    await context.close();

    const phone = await openConsolePage(session, 'phone');
    await signInToDashboard(phone.page, ada);
    await phone.page.goto('/billing');
    const tabs = phone.page.getByRole('tablist');
    await visible(tabs);
    await visible(phone.page.locator('[data-scroll-hint="after"]'));
    await screenshot(phone.page, 'billing-tabs-hint-phone');
    await phone.page.goto('/billing?tab=accounts');
    const accounts = phone.page.getByRole('tab', { name: 'Accounts', selected: true });
    await visible(accounts);
    const box = await boxOf(accounts);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await visible(phone.page.locator('[data-scroll-hint="before"]'));
    await screenshot(phone.page, 'billing-accounts-phone-scrolled');
    await phone.context.close();
  });
});
