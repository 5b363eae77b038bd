import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// The Storage page as a developer uses it: create a bucket, upload a file, open a folder, copy a signed URL that
// serves the file, delete the file and the bucket. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };

async function openStorage(page: Page): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Storage' });
  if (await link.isVisible()) await link.click();
  else await page.goto('/storage');
  await visible(page.getByRole('heading', { level: 1, name: 'Storage' }));
}

describe.skipIf(skip)('Storage in Chromium', () => {
  let session: ConsoleSession;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('creates a bucket, uploads, signs a URL and deletes', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    await openStorage(page);
    await visible(page.getByText('No buckets yet. Create one to store files.'));
    await shot(page, 'storage-empty-desktop');

    await page.getByRole('button', { name: 'New Bucket' }).click();
    await page.getByLabel('Bucket name').fill('photos');
    await page.getByRole('button', { name: 'Create bucket' }).click();
    await toast(page, 'Bucket created');
    await visible(page.getByText('This folder is empty. Upload a file to get started.'));

    await page
      .getByLabel('Upload files')
      .setInputFiles([{ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the console') }]);
    await toast(page, 'Uploaded');
    const row = page.getByRole('row', { name: /hello\.txt/ });
    await visible(row);
    await shot(page, 'storage-desktop');

    await row.getByRole('button', { name: 'Copy a signed URL of hello.txt' }).click();
    await toast(page, 'Signed URL copied');
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(await (await fetch(url)).text()).toBe('hello from the console');

    await row.getByRole('button', { name: 'Delete hello.txt' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await visible(page.getByText('This folder is empty. Upload a file to get started.'));
  });

  it('shows the page at 375 px and in dark mode, saving screenshots to review', async () => {
    await forEachLook(session, grace, async (page, suffix) => {
      await openStorage(page);
      await visible(page.getByRole('list', { name: 'Buckets' }));
      await shot(page, `storage-${suffix}`);
    });
  });
});
