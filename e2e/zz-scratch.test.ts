import { afterAll, beforeAll, describe, it } from 'vitest';
import { registerAndSignIn } from './support/console-account.js';
import { openConsolePage } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';

describe('scratch', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());
  it('billing chart', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    page.on('console', (m) => console.log('PAGE', m.type(), m.text()));
    await registerAndSignIn(page, { username: 'scratch_u', email: 'scratch@example.com', password: 'Scratch!2026' });
    await page.goto('/billing?tab=usage');
    await page.getByRole('list', { name: 'API calls per day' }).waitFor({ state: 'attached' });
    await page.waitForTimeout(3000);
    console.log(
      'SVGS',
      await page.locator('svg.recharts-surface').count(),
      await page.locator('.recharts-bar-rectangle').count(),
    );
    await page.screenshot({ path: '/tmp/shots-console/scratch-billing.png', fullPage: true });
    await context.close();
  }, 60_000);
});
