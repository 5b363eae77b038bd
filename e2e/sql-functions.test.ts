import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// SQL functions as a developer makes them: define one on the SQL Functions page, see a statement that reads
// another account's data refused under the statement, call the function over HTTP as supabase.rpc does, edit and
// delete it. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };

describe.skipIf(skip)('SQL functions in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('defines, calls, edits and deletes a function', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    const token = await accessToken(page);
    await createTableThroughApi(session, token, {
      name: 'notes',
      description: 'Notes with stars',
      schema: { body: { type: 'text' }, stars: { type: 'number' } },
    });
    expect((await postRest(session, token, 'notes', { body: 'Buy milk', stars: 3 })).status).toBe(201);
    expect((await postRest(session, token, 'notes', { body: 'Call Bob', stars: 5 })).status).toBe(201);
    // The dashboard had listed the tables before this one existed; a reload reads them again.
    await page.reload();
    await visible(page.getByRole('link', { name: 'View notes' }));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SQL Functions' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'SQL Functions' }));
    await visible(page.getByText('No SQL functions yet'));
    await shot(page, 'sql-functions-empty-desktop');

    await page.getByRole('button', { name: 'Create SQL Function' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create SQL Function' });
    await visible(dialog);
    await dialog.getByLabel('Name', { exact: true }).fill('starred');
    await dialog.getByLabel('Who may call it').selectOption('public');
    await dialog.getByRole('button', { name: 'Add parameter' }).click();
    await dialog.getByLabel('Parameters 1 name').fill('min');
    await dialog.getByLabel('Parameters 1 type').selectOption('number');
    await dialog.getByLabel('Of', { exact: true }).selectOption('table:notes');
    const editor = dialog.getByRole('textbox', { name: 'SQL statement' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('SELECT * FROM accounts');
    await dialog.getByRole('button', { name: 'Create SQL Function' }).click();
    await visible(dialog.getByText('The statement reads accounts, which is not one of your tables'));
    await shot(page, 'sql-functions-refused-desktop');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('SELECT * FROM notes WHERE stars >= :min ORDER BY stars DESC');
    await dialog.getByRole('button', { name: 'Create SQL Function' }).click();
    await toast(page, 'SQL function saved');
    await visible(page.getByText('starred(min number) → setof notes'));
    await shot(page, 'sql-functions-desktop');

    // The app calls it as supabase.rpc('starred', { min: 4 }) does.
    const app = await (
      await fetch(`${session.server.url}/api/app`, { headers: { Authorization: `Bearer ${token}` } })
    ).json();
    const call = await fetch(`${session.server.url}/rest/v1/rpc/starred?select=body`, {
      method: 'POST',
      headers: { apikey: app.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ min: 4 }),
    });
    expect(call.status).toBe(200);
    expect(await call.json()).toEqual([{ body: 'Call Bob' }]);

    // A write function: a parameter with a default, the statement shown as a write while it is typed.
    await page.getByRole('button', { name: 'Create SQL Function' }).first().click();
    const writer = page.getByRole('dialog', { name: 'Create SQL Function' });
    await writer.getByLabel('Name', { exact: true }).fill('star_up');
    await writer.getByLabel('Who may call it').selectOption('public');
    await writer.getByRole('button', { name: 'Add parameter' }).click();
    await writer.getByLabel('Parameters 1 name').fill('note');
    await writer.getByLabel('Parameters 1 type').selectOption('number');
    await writer.getByRole('button', { name: 'Add parameter' }).click();
    await writer.getByLabel('Parameters 2 name').fill('by');
    await writer.getByLabel('Parameters 2 type').selectOption('number');
    await writer.getByLabel('Parameters 2 default').fill('1');
    await writer.getByLabel('Of', { exact: true }).selectOption('table:notes');
    await writer.getByRole('textbox', { name: 'SQL statement' }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('UPDATE notes SET stars = stars + :by WHERE id = :note RETURNING *');
    await visible(writer.getByText('Writes', { exact: true }));
    await shot(page, 'sql-functions-write-desktop');
    await writer.getByRole('button', { name: 'Create SQL Function' }).click();
    await toast(page, 'SQL function saved');
    await visible(page.getByText('star_up(note number, by number = 1) → setof notes'));
    const bumped = await fetch(`${session.server.url}/rest/v1/rpc/star_up?select=stars`, {
      method: 'POST',
      headers: { apikey: app.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 1 }),
    });
    expect(await bumped.json()).toEqual([{ stars: 4 }]);

    await page.getByRole('button', { name: 'Edit starred' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit starred' });
    await visible(edit);
    await edit.getByLabel('Returns').selectOption('scalar');
    await edit.getByLabel('Of type').selectOption('number');
    await edit.getByRole('textbox', { name: 'SQL statement' }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('SELECT count(*) FROM notes WHERE stars >= :min');
    await shot(page, 'sql-functions-edit-desktop');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'SQL function saved');
    await visible(page.getByText('starred(min number) → number'));

    await page.getByRole('button', { name: 'Delete starred' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'SQL function deleted');
    await page.getByRole('button', { name: 'Delete star_up' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await visible(page.getByText('No SQL functions yet'));
    await context.close();
  });

  it('shows the empty list and the create dialog at 375 px and in the dark theme, saving screenshots to review', async () => {
    await forEachLook(session, ada, async (look, suffix) => {
      await look.goto(`${session.server.url}/sql-functions`);
      await visible(look.getByRole('heading', { level: 1, name: 'SQL Functions' }));
      await visible(look.getByText('No SQL functions yet'));
      await shot(look, `sql-functions-empty-${suffix}`);
      await look.getByRole('button', { name: 'Create SQL Function' }).first().click();
      await visible(look.getByRole('dialog', { name: 'Create SQL Function' }));
      await shot(look, `sql-functions-create-${suffix}`);
    });
  });
});
