import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { openConsolePage } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// The console is live: two tabs on one table each see the other's edits without a reload, as does the table's
// history, and a record another client writes through the data API appears in both.

const skip = browserSkipReason();
const lin = { username: 'lin_live', email: 'lin@example.com', password: 'Realtime!2025' };

const grid = (page: Page) => page.getByRole('table', { name: 'Records' });
const cell = (page: Page, text: string) => grid(page).getByRole('cell', { name: text, exact: true });

describe.skipIf(skip)('the live console in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('shows each tab the other tab’s edits, and a write through the API, without a reload', async () => {
    const { page: first, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(first, lin);
    const token = await accessToken(first);
    const tableId = await createTableThroughApi(session, token, {
      name: 'tasks',
      description: 'Things to do',
      schema: { title: { type: 'text', required: true } },
    });
    await first.goto(`/tables/${tableId}`);
    await visible(first.getByText('No records found'));
    // The second tab shares the first one's session, as a second tab of one browser does.
    const second = await context.newPage();
    await second.goto(`/tables/${tableId}`);
    await visible(second.getByText('No records found'));
    let reloads = 0;
    for (const tab of [first, second]) tab.on('load', () => reloads++);

    await first.getByRole('button', { name: 'Add your first record' }).click();
    const add = first.getByRole('dialog', { name: 'Add Record to tasks' });
    await add.getByLabel('title', { exact: true }).fill('written in the first tab');
    await add.getByRole('button', { name: 'Add Record' }).click();
    await toast(first, 'Record created');
    await visible(cell(second, 'written in the first tab'));

    await grid(second).getByRole('button', { name: 'Edit record 1', exact: true }).click();
    const edit = second.getByRole('dialog', { name: 'Edit Record 1' });
    await edit.getByLabel('title', { exact: true }).fill('changed in the second tab');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(second, 'Record updated');
    await visible(cell(first, 'changed in the second tab'));

    const written = await postRest(session, token, 'tasks', { title: 'written through the API' });
    expect(written.status).toBe(201);
    await visible(cell(first, 'written through the API'));
    await visible(cell(second, 'written through the API'));

    // The table's history follows too.
    await second.getByRole('tab', { name: 'History' }).click();
    await visible(second.getByText(/written through the API/));
    const deleted = await fetch(`${session.server.url}/rest/v1/tasks?id=eq.1`, {
      method: 'DELETE',
      headers: { apikey: session.server.anonKey, Authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(204);
    await first.waitForFunction(() => !document.body.innerText.includes('changed in the second tab'));
    expect(reloads).toBe(0);
    await context.close();
  });
});
