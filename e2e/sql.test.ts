import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestProject } from '../packages/server/src/testing/sql.fixtures.js';
import { createPostgresTarget, type TestTarget } from '../packages/server/src/testing/sql-targets.fixtures.js';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, visible } from './support/console-waits.js';

// SQL Execution as a developer uses it: add a connection to their PostgreSQL database, upload a migration file,
// validate it (dry run), run it, read the per-statement results, type SQL with completion of their tables, and
// run a query again from the history; at 1280 px and 375 px, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };

const MIGRATION = `-- Items of the shop; 25 of them, so the results show 10 of 25.
CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, price numeric(8,2));
INSERT INTO items SELECT g, 'Item ' || g || '; boxed', g * 1.5 FROM generate_series(1, 25) g;
SELECT id, name, price FROM items ORDER BY id;
`;

describe.skipIf(skip)('SQL Execution in Chromium', () => {
  let session: ConsoleSession;
  let target: TestTarget;
  let projectId: string;

  beforeAll(async () => {
    session = await startConsoleSession();
    target = await createPostgresTarget();
  });
  afterAll(async () => {
    await session?.close();
    await target?.drop();
  });

  const targetUrl = () => {
    const e = target.endpoint;
    return `postgres://${e.user}${e.password ? `:${e.password}` : ''}@${e.host}:${e.port}/${e.database}`;
  };

  async function openSqlPage(page: Page) {
    await page.goto('/sql-execution');
    await visible(page.getByRole('heading', { level: 1, name: 'SQL Execution' }));
  }

  it('validates and runs a migration file, then typed SQL, with results, CSV and history', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    const token = await accessToken(page);
    const me = await (
      await fetch(`${session.server.url}/auth/v1/user`, {
        headers: { apikey: session.server.anonKey, Authorization: `Bearer ${token}` },
      })
    ).json();
    projectId = await createTestProject(session.server, me.id);

    await openSqlPage(page);
    await visible(page.getByText('Execute a SQL file to see results'));
    await visible(page.getByText('No SQL files yet'));

    // A connection, through the options panel's dialog.
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add database connection' });
    await settledDialog(add);
    await add.getByLabel('Name').fill('Shop database');
    await add.getByLabel('Connection string').fill(targetUrl());
    await add.getByRole('button', { name: 'Add connection' }).click();
    await toast(page, 'Connection added');
    await page.getByRole('option', { name: 'Shop database (PostgreSQL)' }).waitFor({ state: 'attached' });

    // The upload needs a .sql file.
    await page.getByRole('button', { name: 'Upload SQL File' }).first().click();
    const upload = page.getByRole('dialog', { name: 'Upload SQL File' });
    await settledDialog(upload);
    await upload.getByRole('button', { name: 'Upload' }).click();
    await visible(upload.getByText('Choose a .sql file'));
    await upload
      .getByLabel('SQL file')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await upload.getByRole('button', { name: 'Upload' }).click();
    await visible(upload.getByText('Only .sql files can be uploaded'));
    await upload
      .getByLabel('SQL file')
      .setInputFiles({ name: 'create-items.sql', mimeType: 'application/sql', buffer: Buffer.from(MIGRATION) });
    await upload.getByLabel('Description').fill('Creates and fills the items table');
    await shot(page, 'sql-upload-desktop');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await toast(page, 'SQL File Uploaded');
    await visible(page.getByText('Creates and fills the items table'));

    // A dry run first: Validation Only, and nothing left behind.
    await page.getByRole('switch', { name: 'Dry run' }).click();
    await page.getByRole('button', { name: 'Validate SQL File' }).click();
    await toast(page, 'SQL Validation Complete');
    await visible(page.getByText('3 of 3 statements succeeded').first());
    await visible(page.getByText('Validation Only', { exact: true }).first());
    expect(await target.query("select to_regclass('items') as t")).toEqual([{ t: null }]);

    // Then for real.
    await page.getByRole('switch', { name: 'Dry run' }).click();
    await page.getByRole('button', { name: 'Execute SQL File' }).click();
    await toast(page, 'SQL Execution Complete');
    await visible(page.getByText('Executed', { exact: true }));
    expect(await page.getByTestId('statement-result').count()).toBe(3);
    await visible(page.getByText('Showing 10 of 25 rows'));
    await visible(page.getByRole('cell', { name: 'Item 10; boxed' }));
    expect(await page.getByRole('cell', { name: 'Item 11; boxed' }).count()).toBe(0);
    await shot(page, 'sql-file-results-desktop');

    // CSV of a statement's rows (the first 1,000 the server kept).
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV' }).click(),
    ]);
    const csv = await fs.readFile(await download.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('id,name,price');
    expect(csv).toContain('25,Item 25; boxed,37.50');

    // Direct SQL: the editor completes the connection's tables; a failure is destructive.
    await page.getByRole('button', { name: 'Clear Results' }).click();
    await visible(page.getByText('Execute a SQL file to see results'));
    await page.getByRole('tab', { name: 'Direct SQL' }).click();
    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await editor.click();
    await page.keyboard.type('SELECT count(*) AS n FROM ite');
    const suggestion = page.locator('.cm-tooltip-autocomplete li', { hasText: 'items' });
    await visible(suggestion);
    await suggestion.first().click();
    await page.keyboard.type('; SELECT 1/0');
    await page.keyboard.press('Escape');
    await shot(page, 'sql-direct-desktop');
    await page.getByRole('button', { name: 'Execute SQL' }).click();
    await toast(page, 'SQL Execution Complete');
    await visible(page.getByText('1 of 2 statements succeeded').first());
    await visible(page.getByText('division by zero').first());

    // A statement that does not parse runs nothing and says where.
    await editor.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('SELEC 1');
    await page.getByRole('button', { name: 'Execute SQL' }).click();
    await toast(page, 'Execution Failed');
    await visible(page.getByText(/Syntax error at line 1, column 1/));

    // The history has every run; Re-run runs the oldest, the file's dry run, again as a dry run.
    await visible(page.getByText('Query History'));
    await expect.poll(() => page.getByRole('button', { name: 'Re-run' }).count()).toBe(4);
    await page.getByRole('button', { name: 'Re-run' }).last().click();
    await toast(page, 'SQL Validation Complete');
    await shot(page, 'sql-history-desktop');
    await context.close();
  });

  it('shows Direct SQL results on a phone and in the dark, saving screenshots to review', async () => {
    await forEachLook(session, ada, async (page, suffix) => {
      await openSqlPage(page);
      await page.getByRole('tab', { name: 'Direct SQL' }).click();
      await page.getByRole('textbox', { name: 'SQL query' }).click();
      await page.keyboard.type('SELECT id, name, price FROM items ORDER BY id');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Execute SQL' }).click();
      await toast(page, 'SQL Execution Complete');
      await visible(page.getByText('Showing 10 of 25 rows'));
      await page.waitForTimeout(300);
      await shot(page, `sql-execution-${suffix}`);
    });
  });
});
