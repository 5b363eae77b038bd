import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// The Storage page as a developer uses it: create a bucket, upload by picker and by dropping with progress, preview,
// sign a URL, move into a folder, sort, search, list 101 files in one scrolling list, change the bucket's limits, delete it by typing
// its name. Screenshots at 1280 and 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };
// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

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

  it('creates a bucket, uploads with progress and by dropping, previews, moves, searches, pages and deletes', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    await openStorage(page);
    await visible(page.getByText('No buckets yet. Create one to store files.'));
    await shot(page, 'storage-empty-desktop');

    await page.getByRole('button', { name: 'New Bucket' }).click();
    await page.getByLabel('Bucket name').fill('photos');
    await page.getByRole('button', { name: 'Create bucket' }).click();
    await toast(page, 'Bucket created');
    await visible(page.getByText('This folder is empty. Drop files here or upload them to get started.'));

    // The picker: a progress bar per file that ends full.
    await page
      .getByLabel('Upload files')
      .setInputFiles([{ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the console') }]);
    await toast(page, 'Uploaded');
    await visible(page.getByRole('progressbar', { name: 'Upload of hello.txt' }));
    expect(await page.getByRole('progressbar', { name: 'Upload of hello.txt' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
    await visible(page.getByRole('row', { name: /hello\.txt/ }));

    // Dropping an image on the file list.
    const dropped = await page.evaluateHandle((png) => {
      const transfer = new DataTransfer();
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], 'cat.png', { type: 'image/png' }));
      return transfer;
    }, PNG);
    const zone = page.getByRole('region', { name: 'Drop files here to upload' });
    await zone.dispatchEvent('dragover', { dataTransfer: dropped });
    await zone.dispatchEvent('drop', { dataTransfer: dropped });
    await visible(page.getByRole('row', { name: /cat\.png/ }));
    await shot(page, 'storage-desktop');

    // Previews: text as text, an image as an image.
    await page.getByRole('button', { name: 'Preview hello.txt' }).click();
    await visible(page.getByRole('dialog').getByText('hello from the console'));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Preview cat.png' }).click();
    await visible(page.getByRole('dialog').getByRole('img', { name: 'cat.png' }));
    await shot(page, 'storage-preview-desktop');
    await page.keyboard.press('Escape');

    // A signed URL that serves the file.
    const row = page.getByRole('row', { name: /hello\.txt/ });
    await row.getByRole('button', { name: 'Copy a signed URL of hello.txt' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy URL' }).click();
    await toast(page, 'Signed URL copied');
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(await (await fetch(url)).text()).toBe('hello from the console');

    // Move into a folder, open it, come back.
    await row.getByRole('button', { name: 'Move or rename hello.txt' }).click();
    await page.getByLabel('New path').fill('docs/hello.txt');
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
    await toast(page, 'File moved');
    await page.getByRole('button', { name: 'docs' }).click();
    await visible(page.getByRole('row', { name: /hello\.txt/ }));
    await page.getByRole('navigation', { name: 'Folder' }).getByRole('button', { name: 'photos' }).click();
    await visible(page.getByRole('row', { name: /cat\.png/ }));

    // Sorted Z–A, then back to A–Z.
    const names = () => page.getByRole('table', { name: 'Files' }).getByRole('row').allInnerTexts();
    await page.getByLabel('Sort files').selectOption({ label: 'Name Z–A' });
    await expect
      .poll(async () => (await names()).slice(1).map((row) => row.trim().split(/\s/)[0]))
      .toEqual(['docs', 'cat.png']);
    await page.getByLabel('Sort files').selectOption({ label: 'Name A–Z' });
    await expect
      .poll(async () => (await names()).slice(1).map((row) => row.trim().split(/\s/)[0]))
      .toEqual(['cat.png', 'docs']);

    // Search by name prefix.
    await page.getByLabel('Search files by name').fill('ca');
    await visible(page.getByRole('row', { name: /cat\.png/ }));
    expect(await page.getByRole('button', { name: 'docs' }).count()).toBe(0);
    await page.getByLabel('Search files by name').fill('');

    // 101 files in a folder.
    await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token')) ?? '';
      const token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
      for (let i = 0; i <= 100; i++) {
        const name = `f-${String(i).padStart(3, '0')}.txt`;
        await fetch(`/storage/v1/object/photos/many/${name}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
          body: name,
        });
      }
    });
    await page.reload();
    await visible(page.getByRole('button', { name: 'many' }));
    await page.getByRole('button', { name: 'many' }).click();
    // One list v2 page holds 500: all 101 are loaded, and the list says it ends (e2e/storage-scale.test.ts scrolls
    // through 10,500).
    await visible(page.getByRole('status', { name: 'Files loaded' }).getByText('101 files loaded. End of list.'));
    await page.getByTestId('files-scroll').evaluate((box) => {
      box.scrollTop = box.scrollHeight;
    });
    await visible(page.getByRole('row', { name: /f-100\.txt/ }));
    // Newest first: the last one uploaded leads.
    await page.getByLabel('Sort files').selectOption({ label: 'Newest first' });
    await expect.poll(async () => (await names())[1]?.trim().split(/\s/)[0]).toBe('f-100.txt');
    await page.getByLabel('Sort files').selectOption({ label: 'Name A–Z' });
    await page.getByRole('navigation', { name: 'Folder' }).getByRole('button', { name: 'photos' }).click();

    // Settings: a 1 KB limit, then a larger upload fails with the reason.
    await page.getByRole('button', { name: 'Settings of bucket photos' }).click();
    await page.getByLabel('Largest file (MB)').fill('0.001');
    await page.getByLabel('Allowed file types').fill('text/*, image/*');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Bucket updated');
    await page
      .getByLabel('Upload files')
      .setInputFiles([{ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(5000, 120) }]);
    await visible(page.getByText('The object exceeded the maximum allowed size'));
    await shot(page, 'storage-upload-failed-desktop');

    // Deleting the bucket asks for its name.
    await page.getByRole('button', { name: 'Delete bucket photos' }).click();
    const confirm = page.getByRole('dialog');
    const submit = confirm.getByRole('button', { name: 'Delete bucket' });
    expect(await submit.isDisabled()).toBe(true);
    await confirm.getByLabel('Type photos to confirm').fill('photo');
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'storage-delete-bucket-desktop');
    await confirm.getByLabel('Type photos to confirm').fill('photos');
    await submit.click();
    await visible(page.getByText('No buckets yet. Create one to store files.'));
  });

  it('shows the page at 375 px and in dark mode, saving screenshots to review', async () => {
    await forEachLook(session, grace, async (page, suffix) => {
      await openStorage(page);
      // The first look makes a bucket with a folder and two files for every look to show. Which of the two the page
      // shows is known once the buckets have loaded: asked earlier, it is neither.
      const empty = page.getByText('No buckets yet. Create one to store files.');
      await visible(empty.or(page.getByRole('list', { name: 'Buckets' })));
      if (await empty.isVisible()) {
        await page.getByRole('button', { name: 'New Bucket' }).click();
        await page.getByLabel('Bucket name').fill('avatars');
        await page.getByRole('button', { name: 'Create bucket' }).click();
        await toast(page, 'Bucket created');
        await page.getByLabel('Upload files').setInputFiles([
          { name: 'readme.txt', mimeType: 'text/plain', buffer: Buffer.from('the team avatars') },
          { name: 'ada.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') },
        ]);
        await toast(page, 'Uploaded');
      }
      await visible(page.getByRole('list', { name: 'Buckets' }));
      await visible(page.getByRole('row', { name: /readme\.txt/ }));
      await shot(page, `storage-${suffix}`);
    });
  });
});
