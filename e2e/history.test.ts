import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, VISIBLE, visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// Database History as a person uses it: edit a record, revert that edit from the timeline (the open grid
// follows without a reload), save a checkpoint, make more changes, restore the checkpoint and a version, and
// see the grid match — with screenshots of every tab at desktop and phone widths, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };

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
  let eventsId = 0;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('reverts a change, saves a checkpoint, restores it and a version, and the grid follows', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);

    // No tables yet: the history page says so.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await visible(page.getByText('No Table Selected'));
    await visible(page.getByRole('link', { name: 'Create Your First Table' }));
    await shot(page, 'history-no-table-desktop');

    // A table with three records, made through the data API with the user's own token.
    const token = await accessToken(page);
    tableId = await createTableThroughApi(session, token, {
      name: 'inventory',
      description: 'What is in the shop',
      schema: {
        id: { type: 'number', required: true, unique: true },
        item: { type: 'text', required: true, unique: false },
        qty: { type: 'number', required: false, unique: false },
      },
    });
    for (const [item, qty] of [
      ['Apples', 10],
      ['Pears', 5],
      ['Plums', 7],
    ] as const) {
      expect((await postRest(session, token, 'inventory', { item, qty })).status).toBe(201);
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
    await settledDialog(confirm);
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
    await settledDialog(restoreDialog);
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

  it('shows a date column in a diff by its day, as the grid does', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, ada);
    const token = await accessToken(page);
    eventsId = await createTableThroughApi(session, token, {
      name: 'events',
      description: 'What happens when',
      schema: {
        id: { type: 'number', required: true, unique: true },
        title: { type: 'text', required: true, unique: false },
        starts: { type: 'date', required: false, unique: false },
      },
    });
    expect((await postRest(session, token, 'events', { title: 'Launch', starts: '2026-03-01' })).status).toBe(201);

    await page.goto(`/tables/${eventsId}`);
    await page.getByRole('button', { name: 'Edit record 1', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Record 1' });
    await edit.getByLabel('starts', { exact: true }).fill('2026-04-15');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Record updated');
    await visible(page.getByRole('table', { name: 'Records' }).getByText('2026-04-15', { exact: true }));

    await page.getByRole('tab', { name: 'History' }).click();
    const fields = page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ hasText: 'Record updated' })
      .getByRole('list', { name: 'Field changes' });
    await visible(fields.getByText('2026-03-01', { exact: true }));
    await visible(fields.getByText('2026-04-15', { exact: true }));
    expect(await fields.innerText()).not.toContain('T00:00');
    await shot(page, 'history-date-diff-desktop');
    await context.close();
  });

  it('shows the timeline, table view, checkpoints and a date diff at 375 px wide and in the dark theme, saving screenshots to review', () =>
    forEachLook(session, ada, async (page, suffix) => {
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
      await page.goto(`/history/${eventsId}`);
      await visible(page.getByRole('list', { name: 'Field changes' }).getByText('2026-04-15', { exact: true }));
      await shot(page, `history-date-diff-${suffix}`);
    }));
});
