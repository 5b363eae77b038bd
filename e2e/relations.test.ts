import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { visible } from './support/console-waits.js';
import { createTableThroughApi } from './support/server-api.js';

// Reference columns in the table editor: a number column picks the table it references and what deleting a
// referenced row does; the schema tab and the data API then have the relationship (an embedded select works).

const skip = browserSkipReason();
const ada = { username: 'ada_relations', email: 'ada.relations@example.com', password: 'Engines!1843' };

describe.skipIf(skip)('reference columns in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('creates a table whose number column references another, and reads it embedded', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    const token = await accessToken(page);
    await createTableThroughApi(session, token, {
      name: 'authors',
      description: 'Who writes',
      schema: { name: { type: 'text' } },
    });
    await page.goto('/tables/new');
    const dialog = page.getByRole('dialog', { name: 'Create New Table' });
    await visible(dialog);
    await dialog.getByLabel('Table name').fill('posts');
    await dialog.getByLabel('Column 2 name').fill('title');
    await dialog.getByRole('button', { name: 'Add Column' }).click();
    await dialog.getByLabel('Column 3 name').fill('author_id');
    // The reference choice appears for number columns only.
    expect(await dialog.getByLabel('Column 3 references').count()).toBe(0);
    await dialog.getByLabel('Column 3 type').selectOption('number');
    await visible(dialog.getByLabel('Column 3 references'));
    await dialog.getByLabel('Column 3 references').selectOption('authors');
    await visible(dialog.getByLabel('Column 3 on delete'));
    await dialog.getByLabel('Column 3 on delete').selectOption('cascade');
    await shot(page, 'reference-column-create-desktop');
    await dialog.getByRole('button', { name: 'Create Table' }).click();
    await page.waitForURL('**/tables');

    const headers = { apikey: session.server.anonKey, Authorization: `Bearer ${token}` };
    const tables = await fetch(`${session.server.url}/api/tables`, { headers });
    const posts = (
      (await tables.json()) as Array<{ name: string; schema: Record<string, { references?: unknown }> }>
    ).find((t) => t.name === 'posts');
    expect(posts?.schema.author_id?.references).toEqual({ table: 'authors', onDelete: 'cascade' });
    const json = { ...headers, 'Content-Type': 'application/json', Prefer: 'return=representation' };
    const author = await fetch(`${session.server.url}/rest/v1/authors`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Ada' }),
    });
    const id = ((await author.json()) as Array<{ id: number }>)[0]?.id;
    await fetch(`${session.server.url}/rest/v1/posts`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ title: 'Notes', author_id: id }),
    });
    const embedded = await fetch(`${session.server.url}/rest/v1/posts?select=title,author:authors(name)`, { headers });
    expect(await embedded.json()).toEqual([{ title: 'Notes', author: { name: 'Ada' } }]);
    await context.close();

    await forEachLook(session, ada, async (look, suffix) => {
      await look.goto('/tables/new');
      const form = look.getByRole('dialog', { name: 'Create New Table' });
      await visible(form);
      await form.getByLabel('Column 2 type').selectOption('number');
      await form.getByLabel('Column 2 references').selectOption('authors');
      await visible(form.getByLabel('Column 2 on delete'));
      await shot(look, `reference-column-create-${suffix}`);
    });
  }, 180_000);
});
