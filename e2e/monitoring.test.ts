import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { chartsDrawn, visible } from './support/console-waits.js';

// Monitoring as a developer looks at it: real requests (some refused) counted by the server, the dashboard's API
// traffic charts, the Monitoring tab of System Logs (per API, slowest routes, top errors and their log entries,
// the database's health), its range and API filters. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959x' };
const LISTINGS = 12;
const REFUSED = 4;

async function makeTraffic(session: ConsoleSession, page: Page): Promise<void> {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  for (let i = 0; i < LISTINGS; i++) await fetch(`${session.server.url}/api/tables`, { headers });
  for (let i = 0; i < REFUSED; i++) await fetch(`${session.server.url}/api/activity?page=0`, { headers });
  await session.server.app.basalt.monitoring.flush();
  await session.server.app.basalt.healthHistory.snapshot();
}

async function openMonitoring(page: Page): Promise<void> {
  await page.goto('/logs?view=monitoring');
  await visible(page.getByRole('heading', { level: 1, name: 'System Logs' }));
  await visible(page.getByRole('table', { name: 'Top errors' }));
  await chartsDrawn(page);
}

describe.skipIf(skip)('Monitoring in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('charts the API traffic, lists the slowest routes and top errors, and leads to their log entries', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    await makeTraffic(session, page);
    await page.reload();

    // The dashboard: requests, error rate and p95 latency of the last 24 hours.
    const traffic = page
      .locator('div')
      .filter({ has: page.getByText('API traffic', { exact: true }) })
      .last();
    await visible(page.getByText('API traffic', { exact: true }));
    await chartsDrawn(page);
    const requests = page.getByRole('list', { name: 'API requests' });
    expect(await requests.getByRole('listitem').count()).toBeGreaterThanOrEqual(24);
    const figure = page.getByRole('figure').filter({ hasText: 'API requests' }).first();
    expect(
      Number((await figure.locator('figcaption span').nth(1).textContent())?.replace(/,/g, '')),
    ).toBeGreaterThanOrEqual(LISTINGS + REFUSED);
    await visible(page.getByRole('figure').filter({ hasText: 'p95 latency' }));
    expect(await traffic.count()).toBeGreaterThan(0);
    await shot(page, 'monitoring-dashboard-desktop');

    // A week by the hour.
    await page.getByRole('tab', { name: 'the last 7 days' }).first().click();
    await visible(page.getByText('Requests, errors and response times of the last 7 days.'));
    await page.waitForFunction(
      () => (document.querySelector('ul[aria-label="API requests"]')?.children.length ?? 0) >= 7 * 24,
    );

    // The Monitoring tab, from the dashboard.
    await page.getByRole('link', { name: 'Monitoring' }).click();
    await page.waitForURL(/\/logs\?view=monitoring/);
    await visible(page.getByRole('table', { name: 'Top errors' }));
    await chartsDrawn(page);
    const errorRow = page.getByRole('table', { name: 'Top errors' }).getByRole('row', { name: /GET \/api\/activity/ });
    await visible(errorRow);
    expect(await errorRow.getByRole('cell').nth(1).textContent()).toBe(String(REFUSED));
    await visible(page.getByRole('table', { name: 'Slowest routes' }).getByRole('row', { name: /GET \/api\/tables/ }));
    await visible(page.getByRole('table', { name: 'Requests by API' }).getByRole('row', { name: /Console API/ }));
    await visible(page.getByText('Database health', { exact: true }));
    await visible(page.getByText('HEALTHY', { exact: true }));
    await shot(page, 'monitoring-desktop');

    // One API at a time; Storage has had no requests.
    await page.getByRole('combobox', { name: 'API' }).selectOption('storage');
    await visible(page.getByText('No requests in this range').first());
    await page.waitForURL(/api=storage/);
    await page.getByRole('combobox', { name: 'API' }).selectOption('');

    // A route's errors lead to their entries in the log viewer, searched.
    await page.getByRole('link', { name: 'Log entries of GET /api/activity' }).click();
    await page.waitForURL(/\/settings\?tab=logs/);
    const search = page.getByRole('searchbox').first();
    await visible(search);
    expect(await search.inputValue()).toBe('GET /api/activity');
    await visible(page.getByText('GET /api/activity 400').first());
  });

  it('shows the charts at 375 px and in dark mode, saving screenshots to review', async () => {
    await forEachLook(session, grace, async (page, suffix) => {
      await chartsDrawn(page);
      await visible(page.getByText('API traffic', { exact: true }));
      await shot(page, `monitoring-dashboard-${suffix}`);
      // The Database Size card leads to the storage growth chart on the same page.
      await page.getByRole('link', { name: 'Storage growth chart' }).click();
      await page.waitForFunction(() => {
        const chart = document.getElementById('storage-growth')?.getBoundingClientRect();
        return chart !== undefined && chart.top >= 0 && chart.top < window.innerHeight;
      });
      expect(new URL(page.url()).hash).toBe('#storage-growth');
      await openMonitoring(page);
      await shot(page, `monitoring-${suffix}`);
      // Nothing overflows a phone's width.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });
});
