import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examineTables } from '../packages/server/src/features/insights/insights.service.js';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { visible } from './support/console-waits.js';
import { createTableThroughApi } from './support/server-api.js';

// Performance insights on the Monitoring tab: a very wide table is found by the job and marked implemented.
// Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };

describe.skipIf(skip)('Performance insights in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('lists an insight and marks it implemented', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    const schema = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, { type: 'text' }]));
    await createTableThroughApi(session, await accessToken(page), { name: 'survey', description: '', schema });
    await examineTables(session.server.app.basalt.db);
    await page.goto('/logs?view=monitoring');
    await visible(page.getByText('survey has very wide rows'));
    await shot(page, 'insights-desktop');
    await forEachLook(session, ada, async (look, suffix) => {
      await look.goto('/logs?view=monitoring');
      await visible(look.getByText('survey has very wide rows'));
      await look.getByText('Performance insights').scrollIntoViewIfNeeded();
      await shot(look, `insights-${suffix}`);
    });
    await page.getByRole('button', { name: 'Mark as implemented' }).click();
    await visible(page.getByText(/Implemented [A-Z]/));
    expect(await page.getByRole('button', { name: 'Mark as implemented' }).count()).toBe(0);
  }, 120_000);
});
