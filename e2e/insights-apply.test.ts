import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examineTables } from '../packages/server/src/features/insights/insights.service.js';
import { flushQueryShapes } from '../packages/server/src/features/insights/query-shapes.js';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// An unindexed filter found from the reads' shapes, applied with one click on the Monitoring tab: the insight is
// implemented, the table's schema shows the column Indexed, and the schema editor offers the flag. Then the
// Profile's milestones with their dates. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Compiler!1952' };
// The seeded table is small: every read counts as slow here, what is tested is the path.
const EAGER = { minReads: 5, slowReadMs: 0, frequentReads: 1e9, slowCountMs: 1e9 };

describe.skipIf(skip)('Applying an index insight in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('adds the suggested index with Apply, and shows it in the schema', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    const token = await accessToken(page);
    const schema = { status: { type: 'text' }, total: { type: 'number' } };
    const id = await createTableThroughApi(session, token, { name: 'orders', description: '', schema });
    const rows = Array.from({ length: 40 }, (_, i) => ({ status: i % 2 ? 'open' : 'paid', total: i }));
    expect((await postRest(session, token, 'orders', rows, 'return=minimal')).status).toBe(201);
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${session.server.url}/rest/v1/orders?status=eq.open`, {
        headers: { apikey: session.server.anonKey, Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
    }
    const db = session.server.app.basalt.db;
    await flushQueryShapes(db);
    await examineTables(db, new Date(), EAGER);

    const title = 'orders is filtered on status, which has no index';
    await page.goto('/logs?view=monitoring');
    await visible(page.getByText(title));
    await page.getByText('Performance insights').scrollIntoViewIfNeeded();
    await shot(page, 'insights-apply-desktop');
    await forEachLook(session, grace, async (look, suffix) => {
      await look.goto('/logs?view=monitoring');
      await visible(look.getByText(title));
      await look.getByText('Performance insights').scrollIntoViewIfNeeded();
      await shot(look, `insights-apply-${suffix}`);
    });

    await page.getByRole('button', { name: 'Apply' }).click();
    await visible(page.getByText(/Implemented [A-Z]/));
    expect(await page.getByRole('button', { name: 'Apply' }).count()).toBe(0);
    await shot(page, 'insights-applied-desktop');

    await page.goto(`/tables/${id}?tab=schema`);
    await visible(page.getByText('Indexed', { exact: true }));
    await shot(page, 'table-schema-indexed-desktop');
    await forEachLook(session, grace, async (look, suffix) => {
      await look.goto(`/tables/${id}/edit`);
      await visible(look.getByRole('checkbox', { name: 'Column 2 Indexed' }));
      expect(await look.getByRole('checkbox', { name: 'Column 2 Indexed' }).isChecked()).toBe(true);
      await shot(look, `schema-editor-indexed-${suffix}`);
    });

    await page.goto('/profile');
    await visible(page.getByText('First table'));
    await shot(page, 'achievements-dates-desktop');
    await forEachLook(session, grace, async (look, suffix) => {
      await look.goto('/profile');
      await visible(look.getByText('First table'));
      await look.getByText('First table').first().scrollIntoViewIfNeeded();
      await shot(look, `achievements-dates-${suffix}`);
    });
  }, 240_000);
});
