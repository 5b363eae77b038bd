import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { type ConsoleSession, screenshot, startConsoleSession } from './support/console-server.js';

// Database History as a person uses it: edit a record, revert that edit from the timeline (the open grid
// follows without a reload), save a checkpoint, make more changes, restore the checkpoint and a version, and
// see the grid match — with screenshots of every tab at desktop and phone widths, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };
const ONBOARDING_DONE = 'basalt-onboarding-completed';
const VISIBLE = { timeout: 15_000 } as const;

const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible', ...VISIBLE });
const toast = (page: Page, title: string) => visible(page.getByText(title, { exact: true }));

async function openContext(
  session: ConsoleSession,
  viewport: 'desktop' | 'phone',
  theme: 'light' | 'dark' = 'light',
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await session.newPage(viewport);
  await opened.context.addInitScript(
    ([key, chosen]) => {
      localStorage.setItem(key, 'true');
      localStorage.setItem('basalt-theme', chosen);
    },
    [ONBOARDING_DONE, theme] as const,
  );
  return opened;
}

async function signIn(page: Page) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(ada.email);
  await page.getByLabel('Password', { exact: true }).fill(ada.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
}

function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k));
    const stored = key ? JSON.parse(localStorage.getItem(key) ?? '{}') : {};
    return String(stored.access_token ?? '');
  });
}

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** gridRows reads the records grid as "item:qty" strings, in id order. */
async function gridRows(page: Page): Promise<string[]> {
  const grid = page.getByRole('table', { name: 'Records' });
  await visible(grid);
  const header = await grid.getByRole('columnheader').allInnerTexts();
  // A header reads "itemtext": the column's name, then its type.
  const column = (name: string) => header.findIndex((h) => h.trim().startsWith(name));
  const item = column('item');
  const qty = column('qty');
  const rows = await grid.locator('tbody tr').all();
  const out: string[] = [];
  for (const row of rows) {
    const cells = await row.getByRole('cell').allInnerTexts();
    out.push(`${cells[item]?.trim()}:${cells[qty]?.trim()}`);
  }
  return out;
}

async function editQty(page: Page, id: number, qty: string) {
  await page.getByRole('button', { name: `Edit record ${id}`, exact: true }).click();
  const edit = page.getByRole('dialog', { name: `Edit Record ${id}` });
  await visible(edit);
  await edit.getByLabel('qty', { exact: true }).fill(qty);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await toast(page, 'Record updated');
  await edit.waitFor({ state: 'hidden', ...VISIBLE });
}

describe.skipIf(skip)('database history in Chromium', () => {
  let session: ConsoleSession;
  let tableId = 0;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('reverts a change, saves a checkpoint, restores it and a version, and the grid follows', async () => {
    const { page, context } = await openContext(session, 'desktop');
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username').fill(ada.username);
    await page.getByLabel('Email').fill(ada.email);
    await page.getByLabel('Password', { exact: true }).fill(ada.password);
    await page.getByLabel('Confirm Password').fill(ada.password);
    await page.getByRole('checkbox', { name: /terms/i }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));

    // No tables yet: the history page says so.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await visible(page.getByText('No Table Selected'));
    await visible(page.getByRole('link', { name: 'Create Your First Table' }));
    await shot(page, 'history-no-table-desktop');

    // A table with three records, made through the data API with the user's own token.
    const token = await accessToken(page);
    const rest = (path: string, body: unknown) =>
      fetch(`${session.server.url}/rest/v1/${path}`, {
        method: 'POST',
        headers: {
          apikey: session.server.anonKey,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          Prefer: 'return=representation',
        },
        body: JSON.stringify(body),
      });
    const created = await rest('tables', {
      name: 'inventory',
      description: 'What is in the shop',
      schema: {
        id: { type: 'number', required: true, unique: true },
        item: { type: 'text', required: true, unique: false },
        qty: { type: 'number', required: false, unique: false },
      },
    });
    expect(created.status).toBe(201);
    const body: unknown = await created.json();
    const row: unknown = Array.isArray(body) ? body[0] : body;
    tableId = typeof row === 'object' && row !== null && 'id' in row ? Number(row.id) : 0;
    expect(tableId).toBeGreaterThan(0);
    for (const [item, qty] of [
      ['Apples', 10],
      ['Pears', 5],
      ['Plums', 7],
    ] as const) {
      expect((await rest('inventory', { item, qty })).status).toBe(201);
    }

    // Edit a record, then revert the edit from the table page's History tab: the grid follows, no reload.
    await page.goto(`/tables/${tableId}`);
    await expect.poll(() => gridRows(page), VISIBLE).toEqual(['Apples:10', 'Pears:5', 'Plums:7']);
    await editQty(page, 1, '12');
    await expect.poll(() => gridRows(page), VISIBLE).toEqual(['Apples:12', 'Pears:5', 'Plums:7']);
    await page.getByRole('tab', { name: 'History' }).click();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const edit = timeline.getByRole('listitem').filter({ hasText: 'Record updated' }).first();
    await visible(edit);
    await visible(edit.getByRole('list', { name: 'Field changes' }).getByText('12'));
    await shot(page, 'table-history-timeline-desktop');
    await edit.getByRole('button', { name: /^Revert change/ }).click();
    await toast(page, 'Change reverted');
    await page.getByRole('tab', { name: 'Data' }).click();
    await expect.poll(() => gridRows(page), VISIBLE).toEqual(['Apples:10', 'Pears:5', 'Plums:7']);

    // The history page: the table chosen, the counts, the timeline by day.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Database History' }));
    expect(await page.getByRole('combobox', { name: 'Table' }).inputValue()).toBe(String(tableId));
    await visible(page.getByText('6 changes'));
    await visible(page.getByText('0 checkpoints'));
    await visible(page.getByRole('region', { name: 'Timeline' }).getByRole('heading', { name: 'Today' }));
    await shot(page, 'history-timeline-desktop');

    // Save a checkpoint: the name must not be blank.
    await page.getByRole('tab', { name: 'Checkpoints' }).click();
    await visible(page.getByText('No checkpoints yet'));
    const create = page.getByRole('button', { name: 'Create Checkpoint' });
    expect(await create.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('   ');
    expect(await create.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('Before the sale');
    await page.getByLabel('Description (optional)').fill('Stock counted on Monday');
    await create.click();
    await toast(page, 'Checkpoint created');
    await visible(page.getByRole('listitem', { name: 'Before the sale' }));
    await visible(page.getByText('1 checkpoint', { exact: true }));

    // More changes: an edit, a delete and a new record.
    await page.getByRole('link', { name: 'View Table Data' }).click();
    await page.waitForURL(`**/tables/${tableId}`);
    await editQty(page, 2, '50');
    await page.getByRole('button', { name: 'Delete record 3', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Record deleted');
    await page.getByRole('button', { name: 'Add Record' }).click();
    const add = page.getByRole('dialog', { name: 'Add Record to inventory' });
    await add.getByLabel('item', { exact: true }).fill('Kiwis');
    await add.getByRole('button', { name: 'Add Record' }).click();
    await toast(page, 'Record created');
    await expect.poll(() => gridRows(page), VISIBLE).toEqual(['Apples:10', 'Pears:50', 'Kiwis:']);

    // Restore the checkpoint, after the confirmation.
    await page.goto(`/history/${tableId}?tab=checkpoints`);
    const saved = page.getByRole('listitem', { name: 'Before the sale' });
    await visible(saved);
    await shot(page, 'history-checkpoints-desktop');
    await saved.getByRole('button', { name: 'Restore' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore checkpoint "Before the sale"?' });
    await visible(confirm);
    // Let the dialog finish its opening animation.
    await page.waitForTimeout(300);
    await shot(page, 'history-checkpoint-confirm-desktop');
    await confirm.getByRole('button', { name: 'Restore Checkpoint' }).click();
    await toast(page, 'Checkpoint restored');
    await page.getByRole('link', { name: 'View Table Data' }).click();
    await expect.poll(() => gridRows(page), VISIBLE).toEqual(['Apples:10', 'Pears:5', 'Plums:7']);

    // Restore a version: the table as just after Pears was created; everything later is listed, then undone.
    await page.goto(`/history/${tableId}`);
    const pears = page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ hasText: 'Record created' })
      .filter({ hasText: 'Pears' })
      .last();
    await pears.getByRole('button', { name: /^Select version/ }).click();
    const panel = page.getByRole('region', { name: 'Changes That Will Be Reverted' });
    const later = panel.getByRole('list', { name: 'Changes that will be reverted' });
    await visible(later.getByText('Plums'));
    expect(await later.getByRole('listitem').count()).toBeGreaterThan(5);
    await shot(page, 'history-version-selected-desktop');
    await panel.getByRole('button', { name: 'Restore' }).click();
    const restoreDialog = page.getByRole('alertdialog', { name: 'Restore this version?' });
    await visible(restoreDialog);
    await page.waitForTimeout(300);
    await shot(page, 'history-version-confirm-desktop');
    await restoreDialog.getByRole('button', { name: 'Restore' }).click();
    await toast(page, 'Version restored');
    await page.getByRole('link', { name: 'View Table Data' }).click();
    await expect.poll(() => gridRows(page), VISIBLE).toEqual(['Apples:10', 'Pears:5']);

    await page.goto(`/history/${tableId}?tab=table`);
    await visible(page.getByRole('table', { name: 'Changes' }));
    await shot(page, 'history-table-view-desktop');

    // A schema change reads as the columns it added and renamed.
    const patched = await fetch(`${session.server.url}/api/tables/${tableId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        schema: {
          id: { type: 'number', required: true, unique: true },
          item: { type: 'text', required: true, unique: false },
          quantity: { type: 'number', required: false, unique: false },
          price: { type: 'number', required: false, unique: false },
        },
        renames: { qty: 'quantity' },
      }),
    });
    expect(patched.status).toBe(200);
    await page.goto(`/history/${tableId}`);
    const schemaChange = page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ hasText: 'Schema changed' })
      .first();
    await visible(schemaChange.getByText('Renamed column "qty" to "quantity"'));
    await visible(schemaChange.getByText('Added column "price" (number)'));
    await shot(page, 'history-schema-change-desktop');
    await context.close();
  });

  it('looks finished at 375 px wide and in the dark theme', async () => {
    for (const [viewport, theme] of [
      ['phone', 'light'],
      ['phone', 'dark'],
      ['desktop', 'dark'],
    ] as const) {
      const { page, context } = await openContext(session, viewport, theme);
      const suffix = `${viewport}${theme === 'dark' ? '-dark' : ''}`;
      await signIn(page);
      await page.goto(`/history/${tableId}`);
      const timeline = page.getByRole('region', { name: 'Timeline' });
      await visible(timeline.getByRole('listitem'));
      await timeline
        .getByRole('button', { name: /^Select version/ })
        .nth(3)
        .click();
      await visible(page.getByRole('list', { name: 'Changes that will be reverted' }).getByRole('listitem'));
      await shot(page, `history-timeline-${suffix}`);
      await page.getByRole('tab', { name: 'Table View' }).click();
      await visible(page.getByRole('table', { name: 'Changes' }));
      await shot(page, `history-table-view-${suffix}`);
      await page.getByRole('tab', { name: 'Checkpoints' }).click();
      await visible(page.getByRole('listitem', { name: 'Before the sale' }));
      await shot(page, `history-checkpoints-${suffix}`);
      await context.close();
    }
  });
});
