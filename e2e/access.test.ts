import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOf, signUpEndUser } from './support/app-api.js';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, visible } from './support/console-waits.js';
import { createTableThroughApi } from './support/server-api.js';

// A developer opens a table's Access tab, reads its rules in plain words, gives each app user their own rows,
// and sees the app obey: an end user's todos are theirs alone. The API page shows the app keys (the service key
// masked until revealed); /profile and /documentation are real pages. Screenshots at 1280 and 375 px.

const skip = browserSkipReason();
const dev = { username: 'margaret', email: 'margaret@example.com', password: 'Apollo!1969' };

async function rest(session: ConsoleSession, apikey: string, token: string, path: string, init: RequestInit = {}) {
  return fetch(`${session.server.url}/rest/v1/${path}`, {
    ...init,
    headers: { apikey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
  });
}

describe.skipIf(skip)('access rules, app keys, profile and documentation in Chromium', () => {
  let session: ConsoleSession;
  let tableId = 0;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('sets own-rows rules in the Access tab, and the app obeys them', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, dev);
    const token = await accessToken(page);
    tableId = await createTableThroughApi(session, token, {
      name: 'todos',
      description: 'Each user their own',
      schema: {
        id: { type: 'number', required: true, unique: true },
        title: { type: 'text', required: true },
        owner: { type: 'text' },
      },
    });

    await page.goto(`/tables/${tableId}`);
    await page.getByRole('tab', { name: 'Access' }).click();
    await visible(page.getByText('Only you can read; only you can add, change or delete rows.'));
    await shot(page, 'access-default-desktop');

    await page.getByLabel('Read rows').selectOption('authenticated');
    for (const operation of ['Add rows', 'Change rows', 'Delete rows']) {
      await page.getByLabel(operation).selectOption('own');
    }
    await visible(page.getByLabel('Owner column'));
    expect(await page.getByLabel('Owner column').inputValue()).toBe('owner');
    await visible(page.getByText('Anyone signed in to your app can read; each user edits only their own rows.'));
    await visible(page.getByText('Each signed-in user can add rows, which become their own.'));
    await page.getByRole('button', { name: 'Save rules' }).click();
    await toast(page, 'Access rules saved');
    await shot(page, 'access-own-rows-desktop');
    await page.reload();
    await visible(page.getByText('Anyone signed in to your app can read; each user edits only their own rows.'));

    // The app obeys: two end users add todos; each may read all (signed in) but changes only their own.
    const app = await appOf(session, token);
    const ann = await signUpEndUser(session, app, 'ann@example.com');
    const ben = await signUpEndUser(session, app, 'ben@example.com');
    const added = await rest(session, app.anonKey, ann.token, 'todos', {
      method: 'POST',
      headers: { Prefer: 'return=representation' },
      body: JSON.stringify({ title: "ann's" }),
    });
    expect(added.status).toBe(201);
    const [row] = (await added.json()) as Array<{ id: number; owner: string }>;
    expect(row?.owner).toBe(ann.id);
    const stolen = await rest(session, app.anonKey, ben.token, `todos?id=eq.${row?.id}`, {
      method: 'PATCH',
      headers: { Prefer: 'return=representation' },
      body: JSON.stringify({ title: 'mine now' }),
    });
    expect(await stolen.json()).toEqual([]);
    const forged = await rest(session, app.anonKey, ben.token, 'todos', {
      method: 'POST',
      body: JSON.stringify({ title: 'fake', owner: ann.id }),
    });
    expect(forged.status).toBe(403);

    // The rule change and the users' writes are in the history; the users' are named.
    await page.goto(`/history/${tableId}`);
    await visible(page.getByText('by ann (app user)').or(page.getByText('by ann@example.com (app user)')));
    await shot(page, 'access-history-desktop');
    await context.close();
  });

  it('shows the app keys with the service key masked, the profile and the guide', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, { username: 'katherine', email: 'katherine@example.com', password: 'Orbit!1962' });
    const app = await appOf(session, await accessToken(page));

    await page.goto('/api');
    await visible(page.getByRole('heading', { name: 'App keys' }));
    expect(await page.getByLabel('Anon key', { exact: true }).inputValue()).toBe(app.anonKey);
    const service = page.getByLabel('Service key', { exact: true });
    expect(await service.inputValue()).toBe('•'.repeat(12));
    await shot(page, 'api-app-keys-desktop');
    await page.getByRole('button', { name: 'Reveal Service key' }).click();
    expect(await service.inputValue()).toBe(app.serviceKey);
    await page.getByRole('button', { name: 'Copy Service key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(app.serviceKey);

    // Rolling the keys: the old anon key stops working at once.
    await page.getByRole('button', { name: 'Roll keys' }).click();
    const confirm = page.getByRole('alertdialog');
    await settledDialog(confirm);
    await confirm.getByRole('button', { name: 'Roll keys' }).click();
    await toast(page, 'App keys rolled');
    const old = await fetch(`${session.server.url}/auth/v1/settings`, { headers: { apikey: app.anonKey } });
    expect(old.status).toBe(401);
    expect(await page.getByLabel('Anon key', { exact: true }).inputValue()).not.toBe(app.anonKey);

    // App auth settings.
    await page.getByLabel('Access-token lifetime (seconds)').fill('10');
    await visible(page.getByText('The access-token lifetime must be at least 300 seconds (5 minutes)'));
    await page.getByLabel('Access-token lifetime (seconds)').fill('1800');
    await page.getByRole('switch', { name: 'Allow sign-ups' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'App settings saved');
    const fresh = await appOf(session, await accessToken(page));
    expect(fresh.settings).toMatchObject({ signupsAllowed: false, accessTokenLifetime: 1800 });

    // Anonymous sign-ins and a "Sign in with Acme" provider (OpenID Connect); the secret is never shown again.
    await page.getByRole('switch', { name: 'Allow anonymous sign-ins' }).click();
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByLabel('Provider', { exact: true }).selectOption('oidc');
    await page.getByLabel('Button name').fill('Acme');
    await page.getByLabel('Client ID').fill('acme-app');
    await page.getByLabel('Client secret').fill('acme-secret');
    await page.getByLabel('Issuer URL').fill('https://id.acme.test');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'App settings saved');
    const withProvider = await appOf(session, await accessToken(page));
    expect(withProvider.settings).toMatchObject({
      anonymousSignIns: true,
      providers: [{ id: 'custom:acme', kind: 'oidc', name: 'Acme', clientId: 'acme-app', hasClientSecret: true }],
    });
    // The form is re-read from the saved settings a moment after the toast (the query cache notifies on a timer).
    await expect.poll(() => page.getByLabel('Client secret').inputValue()).toBe('');
    await shot(page, 'app-providers-desktop');

    await page
      .getByRole('link', { name: 'Account menu' })
      .or(page.getByRole('button', { name: 'Account menu' }))
      .click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Profile' }));
    await visible(page.getByText('katherine@example.com'));
    await visible(page.getByText(/Member since/));
    await shot(page, 'profile-desktop');

    await page.goto('/documentation');
    await visible(page.getByRole('heading', { name: /Connect your app/ }));
    const setup = page.getByRole('figure').filter({ hasText: 'supabase.js' });
    await visible(setup.getByText(fresh.anonKey, { exact: false }));
    await shot(page, 'documentation-desktop');
    await context.close();
  });

  it('shows the access rules, app keys, profile and documentation at 375 px and in the dark, saving screenshots to review', async () => {
    await forEachLook(session, dev, async (page, suffix) => {
      await page.goto(`/tables/${tableId}?tab=access`);
      await visible(page.getByText('Anyone signed in to your app can read; each user edits only their own rows.'));
      await shot(page, `access-${suffix}`);
      await page.goto('/api');
      await visible(page.getByRole('heading', { name: 'App keys' }));
      await shot(page, `api-app-keys-${suffix}`);
      await page.goto('/profile');
      await visible(page.getByRole('heading', { level: 1, name: 'Profile' }));
      await shot(page, `profile-${suffix}`);
      await page.goto('/documentation');
      await visible(page.getByRole('heading', { name: /Connect your app/ }));
      await shot(page, `documentation-${suffix}`);
    });
  });
});
