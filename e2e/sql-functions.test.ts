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
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959x' };

const TOP_NOTES = {
  name: 'top_notes',
  params: [{ name: 'min', type: 'number' }],
  returns: { kind: 'rows', table: 'notes' },
  body: 'SELECT * FROM notes WHERE stars >= :min',
  callRule: 'public',
};

/** sqlFunctionCall sends a SQL function request to /api/functions/sql[/id] as the token's owner. */
async function sqlFunctionCall(session: ConsoleSession, token: string, method: string, path = '', body?: unknown) {
  const res = await fetch(`${session.server.url}/api/functions/sql${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

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

  it("reverts a function's change from its history, and brings a deleted function back", async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    const token = await accessToken(page);
    await createTableThroughApi(session, token, {
      name: 'notes',
      description: 'Notes with stars',
      schema: { body: { type: 'text' }, stars: { type: 'number' } },
    });
    const created = await sqlFunctionCall(session, token, 'POST', '', TOP_NOTES);
    expect(created.status).toBe(201);
    const id: number = created.body.id;
    const changed = { ...TOP_NOTES, body: 'SELECT * FROM notes WHERE stars > :min ORDER BY stars DESC' };
    expect((await sqlFunctionCall(session, token, 'PUT', `/${id}`, changed)).status).toBe(200);
    // A second function, deleted: the Recently deleted list shows it in the screenshots.
    const old = await sqlFunctionCall(session, token, 'POST', '', { ...TOP_NOTES, name: 'old_notes' });
    expect((await sqlFunctionCall(session, token, 'DELETE', `/${old.body.id}`)).status).toBe(204);

    await page.goto(`${session.server.url}/sql-functions`);
    await visible(page.getByText(changed.body));
    await page.getByRole('link', { name: 'History of top_notes' }).click();
    await page.waitForURL(`**/history/-${id}`);
    await visible(page.locator('header code', { hasText: 'top_notes' }));
    await visible(page.getByRole('combobox', { name: 'Table' }));
    expect(await page.getByRole('combobox', { name: 'Table' }).inputValue()).toBe(String(-id));
    const update = page.getByRole('listitem').filter({ hasText: 'SQL function changed' });
    await visible(update);
    await visible(update.getByText(TOP_NOTES.body, { exact: true }));
    await shot(page, 'sql-function-history-desktop');
    await update.getByRole('button', { name: /^Revert change/ }).click();
    await toast(page, 'Change reverted');
    // The revert is an entry of its own, and the function list shows the old statement again.
    await visible(page.getByText('2 changes').or(page.getByText('3 changes')));
    await page.getByRole('link', { name: 'View SQL Functions' }).click();
    await visible(page.getByText(TOP_NOTES.body, { exact: true }));
    expect((await sqlFunctionCall(session, token, 'GET', `/${id}`)).body.body).toBe(TOP_NOTES.body);

    // Deleted, then brought back from Recently deleted with its id.
    await page.getByRole('button', { name: 'Delete top_notes' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'SQL function deleted');
    const deleted = page.getByRole('listitem', { name: 'Deleted top_notes' });
    await visible(deleted);
    await shot(page, 'sql-functions-deleted-desktop');
    await deleted.getByRole('button', { name: 'Restore top_notes' }).click();
    await toast(page, 'Change reverted');
    await visible(page.getByRole('link', { name: 'History of top_notes' }));
    await deleted.waitFor({ state: 'detached', timeout: 15_000 });
    expect((await sqlFunctionCall(session, token, 'GET', `/${id}`)).body).toMatchObject({ id, body: TOP_NOTES.body });
    await context.close();

    await forEachLook(session, grace, async (look, suffix) => {
      await look.goto(`${session.server.url}/history/-${id}`);
      await visible(look.getByRole('listitem').filter({ hasText: 'SQL function changed' }));
      await shot(look, `sql-function-history-${suffix}`);
      await look.goto(`${session.server.url}/sql-functions`);
      await visible(look.getByRole('listitem', { name: 'Deleted old_notes' }));
      await shot(look, `sql-functions-deleted-${suffix}`);
    });
  });
});
