import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// API keys as a developer uses them: create a key on the API page, copy its one-time secret, call the
// public record API with it over plain HTTP, then delete it and see it stop working.

const skip = browserSkipReason();
const linus = { username: 'linus_t', email: 'linus@example.com', password: 'Kernel!1991' };

describe.skipIf(skip)('API keys in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('creates a key, copies it once, reads a table with it over HTTP, and deletes it', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, linus);

    // A table with one record to read, made through the data API with the user's own token.
    const token = await accessToken(page);
    await createTableThroughApi(session, token, {
      name: 'notes',
      description: 'Things to remember',
      schema: { id: { type: 'number', required: true, unique: true }, body: { type: 'text', required: true } },
    });
    expect((await postRest(session, token, 'notes', { body: 'Buy milk' })).status).toBe(201);
    // The dashboard had listed the tables before this one existed; a reload reads them again.
    await page.reload();
    await visible(page.getByRole('link', { name: 'View notes' }));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API', exact: true }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'API' }));
    await visible(page.getByRole('tab', { name: 'API Keys', selected: true }));
    await visible(page.getByText('No API keys yet'));
    expect(await page.getByRole('button', { name: 'Create API Key' }).count()).toBe(1);
    await shot(page, 'api-keys-empty-desktop');

    // The name must not be blank.
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API Key' });
    await visible(dialog);
    await dialog.getByLabel('Name').fill('   ');
    await dialog.getByRole('button', { name: 'Create API Key' }).click();
    await visible(dialog.getByText('Name is required'));
    await dialog.getByLabel('Name').fill('Deploy script');
    await dialog.getByRole('button', { name: 'Create API Key' }).click();
    await toast(page, 'API Key created');

    // The secret, shown once, with a copy button whose indicator resets after 2 s.
    const shown = page.getByRole('dialog', { name: 'API Key created' });
    await visible(shown);
    const secret = await shown.getByLabel('Deploy script').inputValue();
    expect(secret).toMatch(/^bsk_/);
    await shown.getByRole('button', { name: 'Copy API key' }).click();
    await visible(shown.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, 'api-key-created-desktop');
    await visible(shown.getByRole('button', { name: 'Copy API key' }));
    await shown.getByRole('button', { name: 'Done' }).click();
    await visible(page.getByRole('cell', { name: /Deploy script/ }));
    expect(await page.getByText(secret).count()).toBe(0);
    await shot(page, 'api-keys-desktop');

    // Plain HTTP with the key reads the table through the public record API.
    const list = await fetch(`${session.server.url}/api/table/notes`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    const records = await list.json();
    expect(records).toEqual([expect.objectContaining({ id: 1, body: 'Buy milk' })]);
    const one = await fetch(`${session.server.url}/api/table/notes/1`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(one.status).toBe(200);

    // The other tabs.
    await page.getByRole('tab', { name: 'Endpoints' }).click();
    await visible(page.getByText('/api/table/notes/{id}'));
    await shot(page, 'api-endpoints-desktop');
    await page.getByRole('tab', { name: 'Documentation' }).click();
    await visible(page.getByRole('cell', { name: '429' }));
    await shot(page, 'api-documentation-desktop');

    // Deleting asks first; afterwards the key no longer works.
    await page.getByRole('tab', { name: 'API Keys' }).click();
    await page.getByRole('button', { name: 'Delete API key Deploy script' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete API key?' });
    await visible(confirm);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await visible(page.getByRole('cell', { name: /Deploy script/ }));
    await page.getByRole('button', { name: 'Delete API key Deploy script' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'API Key deleted');
    await visible(page.getByText('No API keys yet'));
    const refused = await fetch(`${session.server.url}/api/table/notes`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(refused.status).toBe(401);
    await context.close();
  });

  it('offers one Create API Key while there are no keys, in the dark theme at both widths', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { page, context } = await openConsolePage(session, viewport, 'dark');
      await signInToDashboard(page, linus);
      if (viewport === 'phone') await page.getByRole('button', { name: /open navigation/i }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API', exact: true }).click();
      await visible(page.getByText('No API keys yet'));
      expect(await page.getByRole('button', { name: 'Create API Key' }).count()).toBe(1);
      await shot(page, `api-keys-empty-${viewport}-dark`);
      await context.close();
    }
  });

  it('shows no keys, a created key, the key list and the endpoints at 375 px wide, saving screenshots to review', async () => {
    const { page, context } = await openConsolePage(session, 'phone');
    await signInToDashboard(page, linus);
    // Through the menu: the server answers a direct load of /api as an API path (see the report).
    await page.getByRole('button', { name: /open navigation/i }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API', exact: true }).click();
    await visible(page.getByText('No API keys yet'));
    expect(await page.getByRole('button', { name: 'Create API Key' }).count()).toBe(1);
    await shot(page, 'api-keys-empty-phone');
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API Key' });
    await dialog.getByLabel('Name').fill('Phone app');
    await dialog.getByRole('button', { name: 'Create API Key' }).click();
    await visible(page.getByRole('dialog', { name: 'API Key created' }));
    await shot(page, 'api-key-created-phone');
    await page.getByRole('button', { name: 'Done' }).click();
    await visible(page.getByRole('cell', { name: /Phone app/ }));
    await shot(page, 'api-keys-phone');
    await page.getByRole('tab', { name: 'Endpoints' }).click();
    await visible(page.getByText('/api/table/notes/{id}'));
    await shot(page, 'api-endpoints-phone');
    await context.close();
  });
});
