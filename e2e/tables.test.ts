import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, VISIBLE, visible } from './support/console-waits.js';
import { postRest } from './support/server-api.js';

// Tables and records as a new user meets them: create a table with a column of each type, add, edit and
// delete records, change the schema (and see a refused change explained), page through 1,000 rows, and
// delete the table — with screenshots of every screen at desktop and phone widths, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_hopper', email: 'grace@example.com', password: 'Cobol!1959' };

describe.skipIf(skip)('tables and records in Chromium', () => {
  let session: ConsoleSession;
  let tableUrl = '';
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('creates a table with a column of each type, and adds, edits and deletes records', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    await visible(page.getByText('No tables found'));
    await visible(page.getByRole('link', { name: 'Create your first table' }));
    await shot(page, 'dashboard-empty-desktop');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tables' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Tables' }));
    await visible(page.getByText('Create and manage your database tables and their records.'));
    await visible(page.getByText('No tables found'));
    await page.getByRole('link', { name: 'New Table' }).click();
    await page.waitForURL('**/tables/new');
    const dialog = page.getByRole('dialog', { name: 'Create New Table' });
    await visible(dialog);

    // The rules, with the shared schema's messages.
    await dialog.getByRole('button', { name: 'Create Table' }).click();
    await visible(dialog.getByText('Table name must be at least 3 characters'));
    await visible(dialog.getByText('Column name is required'));
    expect(await dialog.getByRole('button', { name: 'Remove column 1' }).count()).toBe(0);

    await dialog.getByLabel('Table name').fill('products');
    await dialog.getByLabel('Description (optional)').fill('Everything we sell');
    const columns: Array<[string, string]> = [
      ['title', 'text'],
      ['price', 'number'],
      ['in_stock', 'boolean'],
      ['released', 'date'],
      ['meta', 'json'],
      ['tags', 'array'],
    ];
    for (const [index, [name, type]] of columns.entries()) {
      const row = index + 2;
      if (index > 0) await dialog.getByRole('button', { name: 'Add Column' }).click();
      await dialog.getByLabel(`Column ${row} name`).fill(name);
      await dialog.getByLabel(`Column ${row} type`).selectOption(type);
    }
    await dialog.getByRole('checkbox', { name: 'Column 2 Required' }).click();
    await dialog.getByRole('checkbox', { name: 'Column 2 Unique' }).click();
    await shot(page, 'create-table-desktop');
    await dialog.getByRole('button', { name: 'Create Table' }).click();
    await toast(page, 'Table created');
    await visible(page.getByText('Your new table has been created successfully.'));
    await page.waitForURL(/\/tables$/);
    await visible(page.getByRole('status', { name: 'Table created successfully' }));
    await visible(page.getByRole('link', { name: 'products' }));
    await visible(page.getByText('Everything we sell'));
    await shot(page, 'tables-list-desktop');

    // The row opens the table.
    await page.getByRole('row', { name: /products/ }).click();
    await page.waitForURL(/\/tables\/\d+$/);
    tableUrl = new URL(page.url()).pathname;
    await visible(page.getByRole('heading', { level: 1, name: 'products' }));
    await visible(page.getByText('No records found'));

    // Add a record with every type.
    await page.getByRole('button', { name: 'Add your first record' }).click();
    const add = page.getByRole('dialog', { name: 'Add Record to products' });
    await visible(add);
    expect(await add.getByLabel('id', { exact: true }).count()).toBe(0);
    await add.getByLabel('title', { exact: true }).fill('Widget');
    await add.getByLabel('price', { exact: true }).fill('9.5');
    await add.getByLabel('in_stock', { exact: true }).selectOption('true');
    await add.getByLabel('released', { exact: true }).fill('2025-05-01');
    await add.getByLabel('meta', { exact: true }).fill('{"color": "red"}');
    await add.getByLabel('tags', { exact: true }).fill('not json');
    await add.getByRole('button', { name: 'Add Record' }).click();
    await visible(add.getByText('"tags" must be a JSON array'));
    await add.getByLabel('tags', { exact: true }).fill('["a", "b"]');
    await shot(page, 'add-record-desktop');
    await add.getByRole('button', { name: 'Add Record' }).click();
    await toast(page, 'Record created');
    const grid = page.getByRole('table', { name: 'Records' });
    await visible(grid.getByRole('cell', { name: 'Widget' }));
    await visible(grid.getByRole('cell', { name: '{"color":"red"}' }));
    await visible(grid.getByRole('cell', { name: '["a","b"]' }));
    await visible(grid.getByRole('cell', { name: '2025-05-01' }));

    // A required field is checked by the browser: the dialog stays open and nothing is sent.
    await page.getByRole('button', { name: 'Add Record' }).click();
    const second = page.getByRole('dialog', { name: 'Add Record to products' });
    await second.getByRole('button', { name: 'Add Record' }).click();
    expect(
      await second.getByLabel('title', { exact: true }).evaluate((el: HTMLInputElement) => el.validity.valueMissing),
    ).toBe(true);
    await second.getByLabel('title', { exact: true }).fill('Gadget');
    await second.getByRole('button', { name: 'Add Record' }).click();
    await toast(page, 'Record created');
    await visible(grid.getByRole('cell', { name: 'Gadget' }));

    // A unique column refuses a repeated value with the server's message.
    await page.getByRole('button', { name: 'Add Record' }).click();
    const third = page.getByRole('dialog', { name: 'Add Record to products' });
    await third.getByLabel('title', { exact: true }).fill('Gadget');
    await third.getByRole('button', { name: 'Add Record' }).click();
    await toast(page, 'Failed to create record');
    await visible(page.getByText(/duplicate key value violates unique constraint/));
    await third.getByRole('button', { name: 'Cancel' }).click();

    // Edit the first record: the same form, filled in.
    await grid.getByRole('button', { name: 'Edit record 1', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Record 1' });
    await visible(edit);
    expect(await edit.getByLabel('title', { exact: true }).inputValue()).toBe('Widget');
    expect(await edit.getByLabel('released', { exact: true }).inputValue()).toBe('2025-05-01');
    expect(await edit.getByLabel('in_stock', { exact: true }).inputValue()).toBe('true');
    expect(await edit.getByLabel('tags', { exact: true }).inputValue()).toBe('[\n  "a",\n  "b"\n]');
    await edit.getByLabel('price', { exact: true }).fill('12');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Record updated');
    await visible(grid.getByRole('cell', { name: '12', exact: true }));

    // Delete the second record.
    await grid.getByRole('button', { name: 'Delete record 2', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Record deleted');
    await expect.poll(() => grid.getByRole('cell', { name: 'Gadget' }).count(), VISIBLE).toBe(0);
    await shot(page, 'table-data-desktop');

    // Schema, API and History tabs.
    await page.getByRole('tab', { name: 'Schema' }).click();
    await visible(page.getByRole('cell', { name: 'released' }));
    await shot(page, 'table-schema-desktop');
    await page.getByRole('tab', { name: 'API' }).click();
    await visible(page.getByText(`/api/table/products/{id}`).first());
    await page.getByRole('button', { name: 'Copy API Reference' }).click();
    await toast(page, 'Copied to clipboard');
    const reference = await page.evaluate(() => navigator.clipboard.readText());
    expect(reference).toContain('# products API');
    expect(reference).toContain('/api/table/products');
    expect(reference).toContain('/rest/v1/products');
    await shot(page, 'table-api-desktop');
    await page.getByRole('tab', { name: 'History' }).click();
    await visible(page.getByRole('region', { name: 'Timeline' }).getByText('Record deleted'));
    await visible(page.getByRole('region', { name: 'Timeline' }).getByText('Table created'));
    await shot(page, 'table-history-desktop');
    await context.close();
  });

  it('changes the schema with a preview, and shows why a change is refused', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, grace);
    await page.goto(`${tableUrl}/edit`);
    await visible(page.getByRole('heading', { level: 1, name: 'Edit Table' }));
    const nameOf = (row: number) => page.getByLabel(`Column ${row} name`);
    await visible(nameOf(1));
    expect(await nameOf(1).inputValue()).toBe('id');
    expect(await nameOf(1).isDisabled()).toBe(true);

    // Rename price, drop meta, add sku.
    await nameOf(3).fill('unit_price');
    const metaRow = await page.getByLabel('Column 6 name').inputValue();
    expect(metaRow).toBe('meta');
    await page.getByRole('button', { name: 'Remove column 6' }).click();
    await page.getByRole('button', { name: 'Add Column' }).click();
    await page.getByLabel('Column 7 name').fill('sku');
    const plan = page.getByRole('list', { name: 'Planned changes' });
    await visible(plan.getByText('Drop column "meta" (json) and its data'));
    await visible(plan.getByText('Rename column "price" to "unit_price"'));
    await visible(plan.getByText('Add column "sku" (text)'));
    await visible(page.getByText('The existing records allow this change.'));
    await shot(page, 'schema-editor-desktop');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Table updated');
    await page.waitForURL(/tab=schema/);
    await visible(page.getByRole('cell', { name: 'unit_price' }));
    await visible(page.getByRole('cell', { name: 'sku' }));
    expect(await page.getByRole('cell', { name: 'meta', exact: true }).count()).toBe(0);

    // Making sku required is refused: the existing record has no value for it.
    await page.goto(`${tableUrl}/edit`);
    await visible(page.getByLabel('Column 7 name'));
    await page.getByRole('checkbox', { name: 'Column 7 Required' }).click();
    const refusal = 'Column "sku" cannot be made required: 1 row has no value.';
    await visible(page.getByTestId('schema-check-refusal').getByText(refusal));
    // Save waits while the records refuse the draft, and says why; the draft stays.
    await expect.poll(() => page.getByRole('button', { name: 'Save Changes' }).isDisabled(), VISIBLE).toBe(true);
    await visible(page.getByText('Save is off until the records allow the change'));
    expect(await page.getByRole('checkbox', { name: 'Column 7 Required' }).isChecked()).toBe(true);
    await shot(page, 'schema-editor-refused-desktop');
    await context.close();
  });

  it('pages through 1,000 rows', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, grace);
    // Seed fast: one bulk insert through /rest/v1 with the user's own token.
    const token = await accessToken(page);
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      title: `Item ${String(i + 1).padStart(4, '0')}`,
      unit_price: i,
    }));
    const response = await postRest(session, token, 'products', rows, 'return=minimal');
    expect(response.status).toBe(201);

    await page.goto(tableUrl);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await visible(pager.getByText('Showing 1–25 of 1,001'));
    await visible(pager.getByText('Page 1 of 41'));
    await pager.getByRole('button', { name: 'Next page' }).click();
    await visible(pager.getByText('Showing 26–50 of 1,001'));
    await visible(page.getByRole('cell', { name: 'Item 0025' }));
    await pager.getByRole('button', { name: 'Last page' }).click();
    await visible(pager.getByText('Showing 1,001–1,001 of 1,001'));
    await visible(page.getByRole('cell', { name: 'Item 1000' }));
    await pager.getByLabel('Rows per page').selectOption('100');
    await visible(pager.getByText('Showing 1–100 of 1,001'));
    await visible(pager.getByText('Page 1 of 11'));
    // The page lives in the address: a reload opens the same page.
    await pager.getByRole('button', { name: 'Next page' }).click();
    await visible(pager.getByText('Showing 101–200 of 1,001'));
    await page.reload();
    await visible(pager.getByText('Showing 101–200 of 1,001'));
    await shot(page, 'table-data-paged-desktop');

    // The dashboard counts the real rows.
    await page.goto('/');
    await visible(page.getByRole('row', { name: /products/ }).getByText('1,001'));
    await shot(page, 'dashboard-desktop');
    await context.close();
  });

  it('shows the dashboard, tables, create dialog, records and table tabs at 375 px wide and in the dark theme, saving screenshots to review', () =>
    forEachLook(session, grace, async (page, suffix) => {
      await visible(page.getByRole('row', { name: /products/ }).getByText('1,001'));
      await shot(page, `dashboard-${suffix}`);
      await page.goto('/tables');
      await visible(page.getByRole('link', { name: 'products' }));
      await shot(page, `tables-list-${suffix}`);
      await page.goto('/tables/new');
      await visible(page.getByRole('dialog', { name: 'Create New Table' }));
      await shot(page, `create-table-${suffix}`);
      await page.goto(tableUrl);
      await visible(page.getByRole('navigation', { name: 'Pages' }));
      await shot(page, `table-data-${suffix}`);
      await page.getByRole('button', { name: 'Edit record 1', exact: true }).click();
      await visible(page.getByRole('dialog', { name: 'Edit Record 1' }));
      await shot(page, `edit-record-${suffix}`);
      await page.keyboard.press('Escape');
      for (const tab of ['Schema', 'API', 'History']) {
        await page.getByRole('tab', { name: tab }).click();
        await visible(page.getByRole('tabpanel'));
        await page.waitForTimeout(300);
        await shot(page, `table-${tab.toLowerCase()}-${suffix}`);
      }
      await page.goto(`${tableUrl}/edit`);
      await visible(page.getByLabel('Column 2 name'));
      await page.getByRole('button', { name: 'Add Column' }).click();
      await page.getByLabel('Column 8 name').fill('notes');
      await visible(page.getByText('The existing records allow this change.'));
      await shot(page, `schema-editor-${suffix}`);
    }));

  it('deletes the table from the list', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, grace);
    await page.goto('/tables');
    await page.getByRole('button', { name: 'Actions for products' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await visible(confirm);
    await visible(
      confirm.getByText(
        'The table and all its records are deleted. Database History keeps them: revert the deletion there to bring the table back.',
      ),
    );
    await shot(page, 'delete-table-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await visible(page.getByRole('link', { name: 'products' }));
    await page.getByRole('button', { name: 'Actions for products' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Table deleted');
    await visible(page.getByText('No tables found'));
    const token = await accessToken(page);
    const gone = await fetch(`${session.server.url}/rest/v1/products?select=*`, {
      headers: { apikey: session.server.anonKey, Authorization: `Bearer ${token}` },
    });
    expect(gone.status).toBe(404);
    await context.close();
  });
});
