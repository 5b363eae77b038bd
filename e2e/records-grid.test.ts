import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, visible } from './support/console-waits.js';
import { createTableThroughApi } from './support/server-api.js';

// The records grid's tools as a person uses them in Chromium: filter, edit a cell in place, check records and
// delete them together, export the selection as CSV and import a CSV file, with screenshots at both widths, light
// and dark.

const skip = browserSkipReason();
const lin = { username: 'lin_grid', email: 'lin.grid@example.com', password: 'Records!2026' };

describe.skipIf(skip)('the records grid’s tools in Chromium', () => {
  let session: ConsoleSession;
  let tableUrl = '';
  let token = '';
  let scratch = '';
  beforeAll(async () => {
    session = await startConsoleSession();
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-grid-'));
  });
  afterAll(async () => {
    await session?.close();
    await fs.rm(scratch, { recursive: true, force: true });
  });

  const records = async () => {
    const id = tableUrl.split('/').at(-1);
    const res = await fetch(`${session.server.url}/api/tables/${id}/records?limit=1000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { data: Array<Record<string, unknown>> }).data;
  };

  it('filters, edits in place, deletes checked records, exports and imports CSV', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, lin);
    token = await accessToken(page);
    const id = await createTableThroughApi(session, token, {
      name: 'teas',
      description: 'What is on the shelf',
      schema: { title: { type: 'text' }, grams: { type: 'number' }, organic: { type: 'boolean' } },
    });
    tableUrl = `/tables/${id}`;
    const rows = ['Sencha', 'Assam', 'Darjeeling', 'Oolong', 'Rooibos'].map((title, i) => ({
      title,
      grams: (i + 1) * 100,
      organic: i % 2 === 0,
    }));
    const seeded = await fetch(`${session.server.url}/api/tables/${id}/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(rows),
    });
    expect(seeded.status).toBe(201);

    await page.goto(tableUrl);
    const grid = page.getByRole('table', { name: 'Records' });
    await visible(grid.getByRole('cell', { name: 'Sencha' }));

    // A filter: at least 300 g.
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByLabel('Filter column').selectOption('grams');
    await page.getByLabel('Filter operator').selectOption('gte');
    await page.getByLabel('Filter value').fill('300');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await visible(page.getByText('Showing 1–3 of 3'));
    expect(await grid.getByRole('cell', { name: 'Sencha' }).count()).toBe(0);
    await shot(page, 'records-grid-filtered-desktop');

    // Edit a cell in place.
    await grid.getByRole('cell', { name: 'Oolong' }).dblclick();
    await page.getByLabel('Edit title').fill('Milk Oolong');
    await page.getByLabel('Edit title').press('Enter');
    await toast(page, 'Record updated');
    await page.getByLabel('Edit title').waitFor({ state: 'detached' });
    await visible(grid.getByRole('cell', { name: 'Milk Oolong' }));
    expect((await records()).find((r) => r.id === 4)?.title).toBe('Milk Oolong');

    // Export what the filter selects.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('teas.csv');
    const exported = await fs.readFile((await download.path()) ?? '', 'utf8');
    const lines = exported.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,title,grams,organic,created_at,updated_at');
    expect(lines.slice(1).map((line) => line.split(',').slice(1, 4).join(','))).toEqual([
      'Darjeeling,300,true',
      'Milk Oolong,400,false',
      'Rooibos,500,true',
    ]);

    // Check two records and delete them together.
    await grid.getByRole('checkbox', { name: 'Select record 3' }).check();
    await grid.getByRole('checkbox', { name: 'Select record 5' }).check();
    await shot(page, 'records-grid-selected-desktop');
    await page.getByRole('button', { name: 'Delete 2 selected' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Records deleted');
    await visible(page.getByText('Showing 1–1 of 1'));
    expect((await records()).map((r) => r.id)).toEqual([1, 2, 4]);

    // Clear the filter and import the exported file back: each row becomes a new record.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await visible(page.getByText('Showing 1–3 of 3'));
    const file = path.join(scratch, 'teas.csv');
    await fs.writeFile(file, exported);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import CSV into teas' });
    await dialog.getByLabel('CSV file').setInputFiles(file);
    await visible(dialog.getByText('3 records with title, grams, organic.'));
    await shot(page, 'records-grid-import-desktop');
    await dialog.getByRole('button', { name: 'Import 3 records' }).click();
    await toast(page, 'Records imported');
    await visible(page.getByText('Showing 1–6 of 6'));
    const after = await records();
    expect(after.slice(3).map((r) => [r.title, r.grams, r.organic])).toEqual([
      ['Darjeeling', 300, true],
      ['Milk Oolong', 400, false],
      ['Rooibos', 500, true],
    ]);

    // A file with a column the table lacks is refused before anything is sent.
    await fs.writeFile(file, 'title,colour\r\nGreen,green\r\n');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await dialog.getByLabel('CSV file').setInputFiles(file);
    await visible(dialog.getByText('The table has no column "colour".'));
    expect(await dialog.getByRole('button', { name: 'Import' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await records()).toHaveLength(6);
    await context.close();
  }, 120_000);

  it('shows the filter form, the check boxes and the import dialog at 375 px and in the dark theme', async () => {
    await forEachLook(session, lin, async (page, suffix) => {
      await page.goto(`${tableUrl}?filter=grams:gte:300`);
      await visible(page.getByRole('table', { name: 'Records' }).getByRole('cell', { name: 'Milk Oolong' }));
      await visible(page.getByRole('list', { name: 'Filters' }).getByText('grams at least 300'));
      await page.getByRole('checkbox', { name: 'Select record 4' }).check();
      await visible(page.getByRole('button', { name: 'Delete 1 selected' }));
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      await visible(page.getByRole('form', { name: 'New filter' }));
      await shot(page, `records-grid-${suffix}`);
      await page.getByRole('button', { name: 'Import CSV' }).click();
      await settledDialog(page.getByRole('dialog', { name: 'Import CSV into teas' }));
      await shot(page, `records-grid-import-${suffix}`);
    });
  });
});
