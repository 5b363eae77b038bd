import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, VISIBLE, visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// The Undo button (bottom right) as a person meets it (issue 35): moving between pages offers no Undo; a revert
// in History does, and Undo takes the revert back.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };

describe.skipIf(skip)('the Undo button in Chromium', () => {
  let session: ConsoleSession;
  let tableId = 0;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('is not offered after plain navigation, and undoes a revert', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    const token = await accessToken(page);
    tableId = await createTableThroughApi(session, token, {
      name: 'notes',
      description: 'Undo in History',
      schema: { title: { type: 'text', required: true, unique: false } },
    });
    expect((await postRest(session, token, 'notes', { title: 'First' })).status).toBe(201);

    const undo = page.getByRole('button', { name: 'Undo', exact: true });
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const link of ['Tables', 'History', 'Settings', 'Dashboard', 'History']) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      await page.waitForLoadState('networkidle');
    }
    await page.goto(`/history/${tableId}`);
    await visible(page.getByRole('region', { name: 'Timeline' }).getByRole('listitem'));
    expect(await undo.count()).toBe(0);

    // A revert can be undone: the button appears, and Undo puts the record back.
    const created = page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ hasText: 'Record created' })
      .first();
    await created.getByRole('button', { name: /^Revert change/ }).click();
    await toast(page, 'Change reverted');
    await visible(undo);
    await shot(page, 'undo-after-revert-desktop');
    await undo.click();
    await toast(page, 'Undone');
    await undo.waitFor({ state: 'hidden', ...VISIBLE });
    const rows = await fetch(`${session.server.url}/rest/v1/notes?select=title`, {
      headers: { apikey: session.server.anonKey, Authorization: `Bearer ${token}` },
    });
    expect(await rows.json()).toEqual([{ title: 'First' }]);
    await context.close();
  });

  it('offers Undo after a revert, not before, at 375 px and in the dark, saving screenshots to review', async () => {
    await forEachLook(session, grace, async (page, suffix) => {
      await page.goto(`/history/${tableId}`);
      const timeline = page.getByRole('region', { name: 'Timeline' });
      await visible(timeline.getByRole('listitem'));
      expect(await page.getByRole('button', { name: 'Undo', exact: true }).count()).toBe(0);
      await timeline
        .getByRole('button', { name: /^Revert change/ })
        .first()
        .click();
      await toast(page, 'Change reverted');
      await visible(page.getByRole('button', { name: 'Undo', exact: true }));
      await shot(page, `undo-after-revert-${suffix}`);
    });
  });
});
