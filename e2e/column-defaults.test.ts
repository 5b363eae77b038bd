import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// Column defaults and date-only columns in the console (issue 35): the create-table form takes a default per
// column and a Date (YYYY-MM-DD) type, Add Record shows the default under its field and lets a required column
// with one stay empty, and the record comes back with the default and the date as typed. 1280/375, light/dark.

const skip = browserSkipReason();
const linus = { username: 'linus_t', email: 'linus@example.com', password: 'Kernel!1991' };

async function openCreateForm(page: Page) {
  await page.goto('/tables/new');
  const dialog = page.getByRole('dialog', { name: 'Create New Table' });
  await visible(dialog);
  return dialog;
}

describe.skipIf(skip)('column defaults and dates in Chromium', () => {
  let session: ConsoleSession;
  let tableUrl = '';
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('creates a table with defaults and a date column, and a record that takes them', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, linus);
    const dialog = await openCreateForm(page);
    await dialog.getByLabel('Table name').fill('tasks');
    await dialog.getByLabel('Column 2 name').fill('title');
    await dialog.getByRole('checkbox', { name: 'Column 2 Required' }).click();
    await dialog.getByRole('button', { name: 'Add Column' }).click();
    await dialog.getByLabel('Column 3 name').fill('status');
    await dialog.getByRole('checkbox', { name: 'Column 3 Required' }).click();
    await dialog.getByLabel('Column 3 default').fill('todo');
    await dialog.getByRole('button', { name: 'Add Column' }).click();
    await dialog.getByLabel('Column 4 name').fill('due');
    await dialog.getByLabel('Column 4 type').selectOption('date_only');
    await dialog.getByLabel('Column 4 default').fill('someday');
    await dialog.getByRole('button', { name: 'Create Table' }).click();
    await visible(dialog.getByText('The default of a date_only column must be a date (YYYY-MM-DD) or "now"'));
    await shot(page, 'column-defaults-refused-desktop');
    await dialog.getByLabel('Column 4 default').fill('now');
    await shot(page, 'column-defaults-create-desktop');
    await dialog.getByRole('button', { name: 'Create Table' }).click();
    await toast(page, 'Table created');
    await page.getByRole('link', { name: 'tasks' }).click();
    await page.waitForURL(/\/tables\/\d+$/);
    tableUrl = new URL(page.url()).pathname;

    await page.getByRole('button', { name: 'Add your first record' }).click();
    const add = page.getByRole('dialog', { name: 'Add Record to tasks' });
    await visible(add.getByText('Left empty:'));
    expect(await add.getByLabel('due', { exact: true }).getAttribute('type')).toBe('date');
    await add.getByLabel('title', { exact: true }).fill('Write the docs');
    await shot(page, 'column-defaults-add-record-desktop');
    await add.getByRole('button', { name: 'Add Record' }).click();
    await toast(page, 'Record created');

    const token = await accessToken(page);
    const rows = await fetch(`${session.server.url}/rest/v1/tasks?select=title,status,due`, {
      headers: { apikey: session.server.anonKey, Authorization: `Bearer ${token}` },
    });
    expect(await rows.json()).toEqual([
      { title: 'Write the docs', status: 'todo', due: new Date().toISOString().slice(0, 10) },
    ]);
    await visible(page.getByRole('table', { name: 'Records' }).getByRole('cell', { name: 'todo' }));
    await page.getByRole('tab', { name: 'Schema' }).click();
    await visible(page.getByText('default "todo"'));
    await shot(page, 'column-defaults-schema-desktop');
    await context.close();
  });

  it('shows the create form and the Add Record dialog at 375 px and in the dark, saving screenshots to review', async () => {
    await forEachLook(session, linus, async (page, suffix) => {
      const dialog = await openCreateForm(page);
      await dialog.getByLabel('Column 2 name').fill('status');
      await dialog.getByLabel('Column 2 default').fill('todo');
      await shot(page, `column-defaults-create-${suffix}`);
      await page.goto(tableUrl);
      await page.getByRole('button', { name: 'Add Record' }).click();
      await visible(page.getByRole('dialog', { name: 'Add Record to tasks' }).getByText('Left empty:'));
      await shot(page, `column-defaults-add-record-${suffix}`);
    });
  });
});
