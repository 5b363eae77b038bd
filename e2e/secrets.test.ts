import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, visible } from './support/console-waits.js';

// Secrets as a developer uses them: add one (the value is required), see it masked, show, hide and copy it, add a
// plain-text one, search, read it from a function, delete it. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const katherine = { username: 'katherine_j', email: 'katherine@example.com', password: 'Orbit!1962' };
const VALUE = 'sk_test_51H-secret-value';

async function openSecrets(page: Page): Promise<void> {
  // The sidebar's link on a desktop; on a phone the sidebar is a slide-over, and the address does the same.
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Secrets' });
  if (await link.isVisible()) await link.click();
  else await page.goto('/secrets');
  await visible(page.getByRole('heading', { level: 1, name: 'Secrets' }));
}

async function addSecret(page: Page, name: string, value: string, encrypted = true): Promise<void> {
  await page.getByRole('button', { name: 'Add Secret' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Secret' });
  await visible(dialog);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Value').fill(value);
  if (!encrypted) await dialog.getByRole('switch', { name: 'Encrypt' }).click();
  await dialog.getByRole('button', { name: 'Add Secret' }).click();
  await toast(page, 'Secret created');
}

describe.skipIf(skip)('Secrets in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('adds, shows, copies, searches, uses and deletes secrets', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, katherine);
    await openSecrets(page);
    await visible(page.getByText('No secrets available. Add your first secret to get started.'));
    await visible(page.getByRole('note').getByText(/instead of hard-coding them/));
    await shot(page, 'secrets-empty-desktop');

    // The value is required.
    await page.getByRole('button', { name: 'Add Secret' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Secret' });
    await dialog.getByLabel('Name').fill('STRIPE_SECRET_KEY');
    await dialog.getByRole('button', { name: 'Add Secret' }).click();
    await visible(dialog.getByText('Secret value is required'));
    await settledDialog(dialog);
    expect(await dialog.getByRole('switch', { name: 'Encrypt' }).getAttribute('aria-checked')).toBe('true');
    await shot(page, 'secret-add-desktop');
    await dialog.getByLabel('Value').fill(VALUE);
    await dialog.getByRole('button', { name: 'Add Secret' }).click();
    await toast(page, 'Secret created');

    const row = page.getByRole('row', { name: /STRIPE_SECRET_KEY/ });
    await visible(row.getByText('Encrypted', { exact: true }).filter({ visible: true }));
    expect(await row.getByTestId('secret-value-STRIPE_SECRET_KEY').textContent()).toBe('•'.repeat(12));
    expect(await page.getByText(VALUE).count()).toBe(0);

    await row.getByRole('button', { name: 'Show STRIPE_SECRET_KEY' }).click();
    await visible(row.getByText(VALUE));
    await row.getByRole('button', { name: 'Hide STRIPE_SECRET_KEY' }).click();
    expect(await row.getByTestId('secret-value-STRIPE_SECRET_KEY').textContent()).toBe('•'.repeat(12));
    await row.getByRole('button', { name: 'Copy STRIPE_SECRET_KEY' }).click();
    await toast(page, 'Copied to clipboard');
    await visible(row.getByRole('button', { name: 'Copied STRIPE_SECRET_KEY' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(VALUE);
    await visible(row.getByRole('button', { name: 'Copy STRIPE_SECRET_KEY' }));

    await addSecret(page, 'PUBLIC_SITE_NAME', 'Katherine’s shop', false);
    await visible(
      page
        .getByRole('row', { name: /PUBLIC_SITE_NAME/ })
        .getByText('Plain Text', { exact: true })
        .filter({ visible: true }),
    );
    await shot(page, 'secrets-desktop');

    await page.getByRole('searchbox', { name: 'Search secrets by name' }).fill('stripe');
    await visible(page.getByRole('row', { name: /STRIPE_SECRET_KEY/ }));
    expect(await page.getByRole('row', { name: /PUBLIC_SITE_NAME/ }).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search secrets by name' }).fill('');

    // A function reads it, with no redeploy after a change.
    const token = await accessToken(page);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const fn = await fetch(`${session.server.url}/api/edge-functions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'reads-secret',
        verifyJwt: false,
        code: `Deno.serve(() => new Response(Deno.env.get('STRIPE_SECRET_KEY')?.slice(0, 7) ?? 'none'));`,
      }),
    }).then((r) => r.json());
    await fetch(`${session.server.url}/api/edge-functions/${fn.id}/deploy`, { method: 'POST', headers });
    expect(await (await fetch(`${session.server.url}/api/edge/reads-secret`)).text()).toBe('sk_test');

    await row.getByRole('button', { name: 'Delete secret STRIPE_SECRET_KEY' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Secret deleted');
    await page.getByRole('row', { name: /STRIPE_SECRET_KEY/ }).waitFor({ state: 'detached' });
  });

  it('shows the secrets and the Add Secret dialog at 375 px and in dark mode, saving screenshots to review', async () => {
    await forEachLook(session, katherine, async (page, suffix) => {
      await openSecrets(page);
      await visible(page.getByRole('row', { name: /PUBLIC_SITE_NAME/ }));
      await shot(page, `secrets-${suffix}`);
      await page.getByRole('button', { name: 'Add Secret' }).first().click();
      await settledDialog(page.getByRole('dialog', { name: 'Add Secret' }));
      await shot(page, `secret-add-${suffix}`);
    });
  });
});
