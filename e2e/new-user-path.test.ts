import { DEFAULT_PLANS } from '@basalt/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, dashboard, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, VISIBLE, visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// What a new user hits first (issue 35), in Chromium: the console's own calls are not API usage; History's cards
// fit a 375 px screen; a checkpoint's restore says what it does to the access rules and can keep today's.

const skip = browserSkipReason();
const lin = { username: 'lin_w', email: 'lin@example.com', password: 'Granite!2026' };
const READABLE = { select: 'authenticated', insert: 'nobody', update: 'nobody', delete: 'nobody' };

async function api(session: ConsoleSession, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${session.server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

/** overflow lists the timeline cards (and their Revert buttons) that reach past the timeline panel's right edge. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panel = document.querySelector('section[aria-label="Timeline"]')?.getBoundingClientRect();
    if (!panel) return ['no timeline'];
    const wide: string[] = [];
    for (const card of document.querySelectorAll('section[aria-label="Timeline"] li[aria-label^="Change "]')) {
      const box = card.getBoundingClientRect();
      const revert = card.querySelector('button[aria-label^="Revert change"]')?.getBoundingClientRect();
      if (box.right > panel.right + 0.5) wide.push(`${card.getAttribute('aria-label')} card`);
      if (revert && revert.right > Math.min(panel.right, window.innerWidth) + 0.5) {
        wide.push(`${card.getAttribute('aria-label')} Revert`);
      }
    }
    return wide;
  });
}

describe.skipIf(skip)('a new user’s path in Chromium', () => {
  let session: ConsoleSession;
  let tableId = 0;
  let checkpointId = 0;
  let token = '';
  beforeAll(async () => {
    session = await startConsoleSession('sqlite', {
      billing: { metering: true, meteringRefreshMs: 100, quotas: 'off', plans: DEFAULT_PLANS, stripe: null },
    });
  });
  afterAll(() => session?.close());

  const apiCalls = async () => {
    await session.server.app.basalt.usage?.flush();
    return (await api(session, token, 'GET', '/api/billing/usage')).body.apiCalls as number;
  };

  it('does not count the console’s own calls as API usage, and the Dashboard shows Billing’s figure', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, lin);
    token = await accessToken(page);
    tableId = await createTableThroughApi(session, token, {
      name: 'notes',
      description: 'Long values',
      schema: { title: { type: 'text', required: true, unique: false }, body: { type: 'text' } },
    });
    const long = `https://example.com/${'a-very-long-path-segment-without-spaces-'.repeat(4)}`;
    for (const title of ['First', 'Second', long]) {
      expect((await postRest(session, token, 'notes', { title, body: long })).status).toBe(201);
    }
    const before = await apiCalls();
    for (let i = 0; i < 5; i++) {
      await page.goto('/');
      await dashboard(page);
      await visible(page.getByRole('link', { name: 'View notes' }));
    }
    expect(await apiCalls()).toBe(before);
    const card = page.getByRole('link', { name: /API Requests/ });
    await expect.poll(() => card.innerText(), VISIBLE).toContain(before.toLocaleString('en-US'));
    await page.goto('/billing');
    await visible(page.getByText('API Calls').first());
    await shot(page, 'new-user-billing-desktop');
    await context.close();
  });

  it('fits History’s timeline cards in a 375 px screen, Revert included', async () => {
    const checkpoint = await api(session, token, 'POST', '/api/checkpoints', {
      tableId,
      name: 'Before opening the notes to every signed-in user of the app',
    });
    expect(checkpoint.status).toBe(201);
    checkpointId = checkpoint.body.id;
    expect((await api(session, token, 'PATCH', `/api/tables/${tableId}`, { access: READABLE })).status).toBe(200);
    await forEachLook(session, lin, async (page, suffix) => {
      await page.goto(`/history/${tableId}`);
      await visible(page.getByRole('region', { name: 'Timeline' }).getByRole('listitem'));
      await shot(page, `new-user-history-cards-${suffix}`);
      expect(await overflow(page)).toEqual([]);
    });
  });

  it('shows what a checkpoint’s restore does to the access rules, and keeps today’s when asked', async () => {
    for (const look of ['phone', 'phone-dark', 'desktop-dark'] as const) {
      const viewport = look.startsWith('phone') ? 'phone' : 'desktop';
      const { page, context } = await openConsolePage(session, viewport, look.endsWith('dark') ? 'dark' : 'light');
      await page.goto('/auth');
      await page.getByLabel('Email').fill(lin.email);
      await page.getByLabel('Password', { exact: true }).fill(lin.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await dashboard(page);
      await page.goto(`/history/${tableId}?tab=checkpoints`);
      await page
        .getByRole('listitem', { name: 'Before opening the notes to every signed-in user of the app' })
        .getByRole('button', { name: 'Restore' })
        .click();
      const confirm = page.getByRole('alertdialog', {
        name: 'Restore checkpoint "Before opening the notes to every signed-in user of the app"?',
      });
      await settledDialog(confirm);
      await visible(confirm.getByRole('region', { name: 'Access rules change' }));
      await shot(page, `new-user-restore-access-${look}`);
      await context.close();
    }

    const { page, context } = await openConsolePage(session, 'desktop');
    await page.goto('/auth');
    await page.getByLabel('Email').fill(lin.email);
    await page.getByLabel('Password', { exact: true }).fill(lin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await dashboard(page);
    await page.goto(`/history/${tableId}?tab=checkpoints`);
    await page
      .getByRole('listitem', { name: 'Before opening the notes to every signed-in user of the app' })
      .getByRole('button', { name: 'Restore' })
      .click();
    const confirm = page.getByRole('alertdialog', {
      name: 'Restore checkpoint "Before opening the notes to every signed-in user of the app"?',
    });
    await settledDialog(confirm);
    const notice = confirm.getByRole('region', { name: 'Access rules change' });
    await visible(notice.getByText('Today: Anyone signed in to your app can read'));
    await visible(notice.getByText('After the restore: Only you can read'));
    await notice.getByRole('checkbox', { name: 'Keep today’s access rules' }).click();
    await shot(page, 'new-user-restore-access-desktop');
    await confirm.getByRole('button', { name: 'Restore Checkpoint' }).click();
    await toast(page, 'Checkpoint restored');
    const table = await api(session, token, 'GET', `/api/tables/${tableId}`);
    expect(table.body.access).toMatchObject(READABLE);
    expect(checkpointId).toBeGreaterThan(0);
    await context.close();
  });
});
