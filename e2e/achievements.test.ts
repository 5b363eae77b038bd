import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { visible } from './support/console-waits.js';
import { createTableThroughApi } from './support/server-api.js';

// The Profile page's achievements: all locked for a new account, the first table's milestone reached once a table
// exists, five tables in progress. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };

describe.skipIf(skip)('Achievements in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('shows milestones with progress on the Profile page', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    await page.goto('/profile');
    const card = page.getByText('milestones reached');
    await visible(page.getByText('0 of 7 milestones reached.'));
    expect(await page.getByRole('progressbar', { name: 'First table' }).getAttribute('aria-valuenow')).toBe('0');

    await createTableThroughApi(session, await accessToken(page), {
      name: 'orders',
      description: '',
      schema: { title: { type: 'text' } },
    });
    await page.reload();
    await visible(page.getByText('1 of 7 milestones reached.'));
    expect(await page.getByRole('progressbar', { name: 'First table' }).getAttribute('aria-valuenow')).toBe('1');
    expect(await page.getByRole('progressbar', { name: 'Five tables' }).getAttribute('aria-valuenow')).toBe('1');
    await visible(card);
    await shot(page, 'achievements-desktop');

    await forEachLook(session, grace, async (look, suffix) => {
      await look.goto('/profile');
      await visible(look.getByText('1 of 7 milestones reached.'));
      await shot(look, `achievements-${suffix}`);
    });
  }, 120_000);
});
