import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// The column editor's "Searchable" choice (issue 30): offered on text columns only, it makes the table opt in to
// search on the column (a full-text index), the schema tab says so, and the schema editor previews turning it off.
// 1280/375, light/dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };

async function openCreateForm(page: Page) {
  await page.goto('/tables/new');
  const dialog = page.getByRole('dialog', { name: 'Create New Table' });
  await visible(dialog);
  return dialog;
}

describe.skipIf(skip)('searchable columns in Chromium', () => {
  let session: ConsoleSession;
  let tableUrl = '';
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('creates a table searchable on a text column, and shows and previews the flag', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    const dialog = await openCreateForm(page);
    await dialog.getByLabel('Table name').fill('articles');
    await dialog.getByLabel('Column 2 name').fill('body');
    await dialog.getByRole('button', { name: 'Add Column' }).click();
    await dialog.getByLabel('Column 3 name').fill('views');
    await dialog.getByLabel('Column 3 type').selectOption('number');
    // Only a text column offers it.
    expect(await dialog.getByRole('checkbox', { name: 'Column 3 Searchable' }).count()).toBe(0);
    await dialog.getByRole('checkbox', { name: 'Column 2 Searchable' }).click();
    await shot(page, 'table-search-create-desktop');
    await dialog.getByRole('button', { name: 'Create Table' }).click();
    await toast(page, 'Table created');

    const token = await accessToken(page);
    const tables = await fetch(`${session.server.url}/api/tables`, { headers: { Authorization: `Bearer ${token}` } });
    const list = (await tables.json()) as Array<{ id: number; name: string; schema: Record<string, unknown> }>;
    const articles = list.find((t) => t.name === 'articles');
    expect(articles?.schema.body).toMatchObject({ type: 'text', search: true });
    expect(articles?.schema.views).not.toHaveProperty('search');

    await page.getByRole('link', { name: 'articles' }).click();
    await page.waitForURL(/\/tables\/\d+$/);
    tableUrl = new URL(page.url()).pathname;
    await page.getByRole('tab', { name: 'Schema' }).click();
    await visible(page.getByText('Searchable', { exact: true }));
    await shot(page, 'table-search-schema-desktop');

    // Turning it off is previewed and saved like any schema change.
    await page.goto(`${tableUrl}/edit`);
    await visible(page.getByLabel('Column 2 name'));
    await page.getByRole('checkbox', { name: 'Column 2 Searchable' }).click();
    const plan = page.getByRole('list', { name: 'Planned changes' });
    await visible(plan.getByText('Drop the full-text index of "body"'));
    await visible(page.getByText('The existing records allow this change.'));
    await shot(page, 'table-search-edit-desktop');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Table updated');
    await page.waitForURL(/tab=schema/);
    await visible(page.getByRole('cell', { name: 'body' }));
    expect(await page.getByText('Searchable', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('looks finished at 375 px and in the dark', async () => {
    await forEachLook(session, grace, async (page, suffix) => {
      const dialog = await openCreateForm(page);
      await dialog.getByLabel('Column 2 name').fill('title');
      await dialog.getByRole('checkbox', { name: 'Column 2 Searchable' }).click();
      await shot(page, `table-search-create-${suffix}`);
      await page.goto(`${tableUrl}/edit`);
      await visible(page.getByLabel('Column 2 name'));
      await page.getByRole('checkbox', { name: 'Column 2 Searchable' }).click();
      await visible(page.getByRole('list', { name: 'Planned changes' }).getByText('Make "body" searchable'));
      await shot(page, `table-search-edit-${suffix}`);
    });
  });
});
