import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// The collaborative Schema Editor as a team uses it: Ada creates a project and invites Grace as a
// DEVELOPER; both open the project's canvas in their own browser; each sees the other's table and edits within
// a second, and who is there. Then the design becomes real tables.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959x' };

const SECOND = 1_000;

const fieldNames = (page: Page, table: string) =>
  page
    .getByTestId(`table-node-${table}`)
    .getByLabel('Field name', { exact: true })
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

async function openEditor(page: Page, viaUrl = false) {
  if (viaUrl) await page.goto('/schema-editor');
  else await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schema Editor' }).click();
  await visible(page.getByRole('heading', { level: 1, name: 'Schema Editor' }));
}

describe.skipIf(skip)('Schema Editor in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('lets two people edit one canvas live, then creates the tables', async () => {
    const first = await openConsolePage(session, 'desktop');
    const a = first.page;
    await registerAndSignIn(a, ada);
    const second = await openConsolePage(session, 'desktop');
    const g = second.page;
    await registerAndSignIn(g, grace);

    // No project yet: the way to the first one.
    await openEditor(a);
    await visible(a.getByRole('link', { name: 'Create Your First Project' }));
    await shot(a, 'schema-editor-empty-desktop');
    await a.getByRole('link', { name: 'Create Your First Project' }).click();
    await visible(a.getByRole('heading', { level: 1, name: 'New Project' }));
    await a.getByLabel('Name').fill('ab');
    await a.getByRole('button', { name: 'Create Project' }).click();
    await visible(a.getByText('Project name must be at least 3 characters'));
    await a.getByLabel('Name').fill('Analytical Engine');
    await a.getByRole('button', { name: 'Create Project' }).click();
    await visible(a.getByRole('heading', { level: 1, name: 'Schema Editor' }));
    await visible(a.getByRole('status').getByText('Connected'));

    // Ada invites Grace as a DEVELOPER in the project's settings.
    await a.getByRole('main').getByRole('link', { name: 'Settings' }).click();
    await visible(a.getByText('Your role: OWNER'));
    await a.getByLabel('Email or username').fill(grace.email);
    await a.getByLabel('Role', { exact: true }).selectOption('DEVELOPER');
    await a.getByRole('button', { name: 'Invite' }).click();
    await visible(a.getByText('grace@example.com'));
    await shot(a, 'project-settings-desktop');
    await a.getByRole('link', { name: 'Open Schema Editor' }).click();
    await visible(a.getByRole('status').getByText('Connected'));

    await openEditor(g);
    await visible(g.getByRole('status').getByText('Connected'));
    await visible(g.getByText('DEVELOPER', { exact: true }));
    // Both are in the room.
    await visible(a.getByTestId('active-users').getByText('2 active'));

    // Ada adds a table; Grace sees it within a second.
    await a.getByRole('button', { name: 'Add table' }).click();
    await visible(a.getByTestId('table-node-Table 1'));
    let started = Date.now();
    await g.getByTestId('table-node-Table 1').waitFor({ timeout: SECOND });
    expect(Date.now() - started).toBeLessThan(SECOND);

    // Grace renames it; Ada sees the new name within a second.
    const graceName = g.getByTestId('table-node-Table 1').getByLabel('Table name');
    await graceName.fill('engines');
    started = Date.now();
    await a.getByTestId('table-node-engines').waitFor({ timeout: SECOND });
    expect(Date.now() - started).toBeLessThan(SECOND);

    // At once: Ada adds a field while Grace adds another table; both edits survive on both screens.
    await a.getByTestId('table-node-engines').getByRole('button', { name: 'Add field' }).click();
    await g.getByRole('button', { name: 'Add table' }).click();
    for (const page of [a, g]) {
      await expect.poll(() => fieldNames(page, 'engines'), { timeout: 5 * SECOND }).toEqual(['id', 'name', 'field_3']);
      await page.getByTestId('table-node-Table 2').waitFor({ timeout: 5 * SECOND });
    }
    // Grace selects the engines table (by its header): Ada sees her initials on it.
    await g.getByTestId('table-node-engines').click({ position: { x: 4, y: 4 } });
    await visible(a.getByTestId('table-node-engines').getByTitle('grace_h is here'));
    await shot(a, 'schema-editor-desktop');

    // The design becomes real tables.
    await a.getByRole('button', { name: 'Create tables from this design' }).click();
    const dialog = a.getByRole('dialog', { name: 'Create tables from this design' });
    await visible(dialog.getByText('Refused'));
    await visible(dialog.getByText(/Table name/));
    await shot(a, 'schema-editor-design-refused-desktop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await a.getByTestId('table-node-Table 2').getByLabel('Table name').fill('cards');
    await a.getByRole('button', { name: 'Create tables from this design' }).click();
    await visible(dialog.getByText('Create table engines'));
    await dialog.getByRole('button', { name: 'Create tables' }).click();
    await toast(a, 'Tables created');
    const tables = await fetch(`${session.server.url}/api/tables`, {
      headers: { authorization: `Bearer ${await accessToken(a)}` },
    });
    expect((await tables.json()).map((t: { name: string }) => t.name).sort()).toEqual(['cards', 'engines']);

    // Grace finds the new tables shared with her, with the project's name, and adds a record as a DEVELOPER.
    await g.goto('/tables');
    await visible(g.getByText('Shared with you'));
    await visible(g.getByText(/Analytical Engine · by ada_l/));
    await g.getByRole('link', { name: 'engines' }).click();
    await visible(g.getByText('Shared in Analytical Engine · DEVELOPER'));
    await g.getByRole('button', { name: 'Add Record' }).click();
    const form = g.getByRole('dialog', { name: 'Add Record to engines' });
    await form.getByRole('textbox', { name: 'name' }).fill('Difference Engine');
    await form.getByRole('button', { name: 'Add Record' }).click();
    await toast(g, 'Record created');
    await visible(g.getByRole('cell', { name: 'Difference Engine' }));
    await shot(g, 'shared-table-desktop');
    // Ada's history of the table names Grace as who added it.
    const adaToken = await accessToken(a);
    const graceId = JSON.parse(Buffer.from((await accessToken(g)).split('.')[1] ?? '', 'base64url').toString()).sub;
    const own = await (
      await fetch(`${session.server.url}/api/tables`, { headers: { authorization: `Bearer ${adaToken}` } })
    ).json();
    const enginesId = own.find((t: { name: string }) => t.name === 'engines').id;
    const history = await fetch(`${session.server.url}/api/history?tableId=${enginesId}&limit=1`, {
      headers: { authorization: `Bearer ${adaToken}` },
    });
    expect((await history.json()).data[0]).toMatchObject({ changeType: 'RECORD_CREATE', userId: graceId });

    await first.context.close();
    await second.context.close();
  });

  it('shows the connected canvas and New Project at 375 px and in dark mode, saving screenshots to review', async () => {
    await forEachLook(session, ada, async (page, suffix) => {
      await openEditor(page, true);
      await visible(page.getByTestId('table-node-engines'));
      await visible(page.getByRole('status').getByText('Connected'));
      // The connection's toast goes after 5 s; the picture shows the canvas.
      await page
        .locator('li', { hasText: 'Connected to collaboration server' })
        .waitFor({ state: 'detached', timeout: 10_000 });
      await shot(page, `schema-editor-${suffix}`);
    });
    const { page, context } = await openConsolePage(session, 'phone');
    await signInToDashboard(page, grace);
    await page.goto('/projects/new');
    await visible(page.getByRole('heading', { level: 1, name: 'New Project' }));
    await shot(page, 'new-project-phone');
    await context.close();
  });
});
