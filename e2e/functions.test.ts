import { createClient } from '@supabase/supabase-js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { chartsDrawn, settledDialog, toast, visible } from './support/console-waits.js';

// Edge functions as a developer uses them: write one in the console from the template, deploy it, call it with
// curl-style HTTP and with supabase-js, test it in the panel, read its log and chart, break it and see the
// deploy refused with the line, switch it off, delete it. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const margaret = { username: 'margaret_h', email: 'margaret@example.com', password: 'Apollo!1969' };

const GREETER = `Deno.serve(async (req: Request) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }));
  console.log('greeting', name);
  return Response.json({ message: \`Hello \${name}!\` });
});`;

async function replaceCode(page: Page, code: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Function code' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  if (code) await page.keyboard.insertText(code);
}

async function openFunctions(page: Page): Promise<void> {
  // The sidebar's link on a desktop; on a phone the sidebar is a slide-over, and the address does the same.
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Edge Functions' });
  if (await link.isVisible()) await link.click();
  else await page.goto('/edge-functions');
  await visible(page.getByRole('heading', { level: 1, name: 'Edge Functions' }));
}

describe.skipIf(skip)('Edge functions in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('writes, deploys, calls, tests, logs, breaks, deactivates and deletes a function', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, margaret);
    await openFunctions(page);
    await visible(page.getByRole('tab', { name: 'All Functions', selected: true }));
    await visible(page.getByText('No edge functions found'));
    await shot(page, 'edge-functions-empty-desktop');

    // The Create dialog: the template, the default route, active on; code is required.
    await page.getByRole('button', { name: 'Create Function' }).first().click();
    const create = page.getByRole('dialog', { name: 'Create Edge Function' });
    await visible(create);
    expect(await create.getByLabel('Route').inputValue()).toBe('/api/edge/my-function');
    expect(await create.getByRole('switch', { name: 'Active' }).getAttribute('aria-checked')).toBe('true');
    await visible(create.getByText('Deno.serve(async (req: Request)'));
    await settledDialog(create);
    await shot(page, 'edge-function-create-desktop');
    await create.getByLabel('Name').fill('my-function');
    await replaceCode(page, '');
    await create.getByRole('button', { name: 'Create Function' }).click();
    await visible(create.getByText('Function code is required'));
    await replaceCode(page, GREETER);
    await create.getByRole('switch', { name: 'Require a signed-in caller' }).click();
    await create.getByRole('button', { name: 'Create Function' }).click();
    await toast(page, 'Edge function created');

    const card = page.getByRole('article', { name: 'Edge function my-function' });
    // Not deployed yet: its route is a 404, and the card says so rather than "Active".
    await visible(card.getByText('Not deployed', { exact: true }));
    await visible(card.getByText('/api/edge/my-function'));
    await visible(card.getByText('Last deployed: Never'));

    await card.getByRole('button', { name: 'Deploy' }).click();
    await toast(page, 'Edge function deployed');
    await visible(card.getByText(/Last deployed: (?!Never)/));
    await visible(card.getByText('Active', { exact: true }));
    await shot(page, 'edge-functions-desktop');

    // curl-style HTTP, and supabase-js's functions.invoke.
    const token = await accessToken(page);
    const http = await fetch(`${session.server.url}/api/edge/my-function`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'curl' }),
    });
    expect(await http.json()).toEqual({ message: 'Hello curl!' });
    const supabase = createClient(session.server.url, session.server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { Authorization: `Bearer ${token}` } },
    });
    const invoked = await supabase.functions.invoke('my-function', { body: { name: 'supabase-js' } });
    expect(invoked).toMatchObject({ data: { message: 'Hello supabase-js!' }, error: null });

    // The test panel, the log with its chart, the versions.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit my-function' });
    await visible(edit);
    await edit.getByRole('tab', { name: 'Test' }).click();
    await edit.getByLabel('Body').fill('{"name": "panel"}');
    await edit.getByRole('button', { name: 'Send request' }).click();
    await visible(edit.getByText('{"message":"Hello panel!"}'));
    await visible(edit.getByText('greeting panel'));
    await shot(page, 'edge-function-test-desktop');
    await edit.getByRole('tab', { name: 'Logs' }).click();
    await visible(edit.getByRole('img', { name: /3 invocations and 0 errors/ }));
    await edit.getByRole('list', { name: 'Invocations' }).getByRole('button').first().click();
    await visible(edit.getByText('greeting panel'));
    await chartsDrawn(edit);
    await shot(page, 'edge-function-logs-desktop');
    await edit.getByRole('tab', { name: 'Versions' }).click();
    await visible(edit.getByText('Live'));

    // A syntax error: saved, but the deploy is refused with its line and column.
    await edit.getByRole('tab', { name: 'Code' }).click();
    await replaceCode(page, 'Deno.serve(() => {\n  return new Response("x"\n});');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Edge function updated');
    await card.getByRole('button', { name: 'Deploy' }).click();
    await toast(page, 'Failed to deploy edge function');
    await visible(page.getByText(/Line 3, column 1/));
    const still = await fetch(`${session.server.url}/api/edge/my-function`, { method: 'POST', body: '{"name":"v1"}' });
    expect(await still.json()).toEqual({ message: 'Hello v1!' });

    // Inactive: it leaves the Active tab and stops answering.
    await card.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('switch', { name: 'Active' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Edge function updated');
    await page.getByRole('tab', { name: 'Active', exact: true }).click();
    await visible(page.getByText('No edge functions found'));
    await page.getByRole('tab', { name: 'Inactive' }).click();
    await visible(card.getByText('Inactive', { exact: true }));
    expect((await fetch(`${session.server.url}/api/edge/my-function`)).status).toBe(404);

    await page.getByRole('tab', { name: 'All Functions' }).click();
    await card.getByRole('button', { name: 'Delete my-function' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Edge function deleted');
    await visible(page.getByText('No edge functions found'));
  });

  it('shows the functions and the edit dialog’s tabs at 375 px and in dark mode, saving screenshots to review', async () => {
    const token = await (async () => {
      const { page, context } = await openConsolePage(session, 'desktop');
      await page.goto('/auth');
      await page.getByLabel('Email').fill(margaret.email);
      await page.getByLabel('Password', { exact: true }).fill(margaret.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
      const value = await accessToken(page);
      await context.close();
      return value;
    })();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (const [name, active] of [
      ['send-welcome-email', true],
      ['stripe-webhook', true],
      ['nightly-cleanup', false],
    ] as const) {
      const made = await fetch(`${session.server.url}/api/edge-functions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, code: GREETER, isActive: active, verifyJwt: false }),
      }).then((r) => r.json());
      await fetch(`${session.server.url}/api/edge-functions/${made.id}/deploy`, { method: 'POST', headers });
    }
    await fetch(`${session.server.url}/api/edge/send-welcome-email`, { method: 'POST', body: '{"name":"x"}' });
    await forEachLook(session, margaret, async (page, suffix) => {
      await openFunctions(page);
      await visible(page.getByRole('article', { name: 'Edge function stripe-webhook' }));
      await shot(page, `edge-functions-${suffix}`);
      await page
        .getByRole('article', { name: 'Edge function send-welcome-email' })
        .getByRole('button', { name: 'Edit' })
        .click();
      const edit = page.getByRole('dialog', { name: 'Edit send-welcome-email' });
      await visible(edit.getByRole('textbox', { name: 'Function code' }));
      await settledDialog(edit);
      await shot(page, `edge-function-edit-${suffix}`);
      await edit.getByRole('tab', { name: 'Logs' }).click();
      await visible(edit.getByRole('list', { name: 'Invocations' }));
      await chartsDrawn(edit);
      await shot(page, `edge-function-logs-${suffix}`);
    });
  });
});
