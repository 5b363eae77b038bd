import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// The Storage page's file browser on a bucket of 10,500 files (issue 31: "paged past 10,000 objects"): the list
// loads the next page as it scrolls (list v2's cursors in name order), keeps only the rows in view in the DOM,
// says how many are loaded and when the end is reached; search and the other orders still work, and check boxes
// delete several files at once after a confirmation naming how many. The files go in through the storage API.

const skip = browserSkipReason();
const lin = { username: 'lin_bulk', email: 'lin.bulk@example.com', password: 'Storage!10500' };
const FILES = 10_500;
const nameOf = (i: number) => `obj-${String(i).padStart(5, '0')}.txt`;
const LAST = nameOf(FILES - 1);

async function openStorage(page: Page): Promise<void> {
  await page.goto('/storage');
  await visible(page.getByRole('heading', { level: 1, name: 'Storage' }));
}

const status = (page: Page) => page.getByRole('status', { name: 'Files loaded' });

/** scrollToEnd scrolls the file list down until it says the end is reached (bounded). */
async function scrollToEnd(page: Page): Promise<number> {
  let scrolls = 0;
  for (; scrolls < 400; scrolls++) {
    const ended = (await status(page).innerText()).includes('End of list');
    await page.getByTestId('files-scroll').evaluate((box) => {
      box.scrollTop = box.scrollHeight;
    });
    await page.waitForTimeout(150);
    // The last page arrived below the rows in view: one more scroll shows the end.
    if (ended) return scrolls;
  }
  throw new Error('the list did not reach its end after 400 scrolls');
}

// SQLite always; PostgreSQL too when TEST_DATABASE_URL names one (its screenshots are not saved again).
const engines = (['sqlite', 'postgres'] as const).filter(
  (engine) => engine === 'sqlite' || process.env.TEST_DATABASE_URL,
);

describe.skipIf(skip).each(engines)('a bucket of 10,500 files in Chromium on %s', (engine) => {
  let session: ConsoleSession;
  const snap = (page: Page, name: string) => (engine === 'sqlite' ? shot(page, name) : Promise.resolve());
  beforeAll(async () => {
    session = await startConsoleSession(engine);
  });
  afterAll(() => session?.close());

  it('scrolls to the 10,500th file, keeping few rows in the DOM, and deletes a selection', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, lin);
    const token = await accessToken(page);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${session.server.url}/storage/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      });
    const created = await api('/bucket', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bulk' }),
    });
    expect(created.status).toBe(200);
    // 10,500 uploads, 8 at a time; a folder beside them (`notes/`, first by name) shares the first page of 500.
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < FILES; i = next++) {
        const res = await api(`/object/bulk/${nameOf(i)}`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: `file ${i}`,
        });
        if (res.status !== 200) throw new Error(`upload ${i} answered ${res.status}: ${await res.text()}`);
      }
    };
    const seeded = performance.now();
    await Promise.all(Array.from({ length: 8 }, worker));
    await api('/object/bulk/notes/readme.txt', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    console.info(`seeded ${FILES} files in ${Math.round(performance.now() - seeded)} ms`);

    await openStorage(page);
    await visible(page.getByRole('row', { name: /obj-00000\.txt/ }));
    await visible(status(page).getByText('499 files and 1 folder loaded; scroll for more.'));
    await snap(page, 'storage-scale-desktop');

    const scrolls = await scrollToEnd(page);
    console.info(`reached the end in ${scrolls} scrolls`);
    await visible(page.getByRole('row', { name: new RegExp(LAST.replace('.', '\\.')) }));
    await visible(status(page).getByText('10,500 files and 1 folder loaded. End of list.'));
    // The DOM holds the rows in view and a margin, not 10,500.
    const rows = await page.getByTestId('files-scroll').locator('tbody tr').count();
    console.info(`${rows} rows in the DOM at the end of the list`);
    expect(rows).toBeLessThan(150);
    await snap(page, 'storage-scale-end-desktop');

    // Search goes on by prefix; the folder sorts among the names.
    await page.getByLabel('Search files by name').fill('obj-1049');
    await visible(status(page).getByText('10 files loaded. End of list.'));
    await visible(page.getByRole('row', { name: /obj-10490\.txt/ }));
    await page.getByLabel('Search files by name').fill('no');
    await visible(page.getByRole('button', { name: 'notes' }));

    // Another order: the server sorts the whole folder, 1,000 a page, and the page says what that costs.
    await page.getByLabel('Search files by name').fill('');
    await page.getByLabel('Sort files').selectOption({ label: 'Name Z–A' });
    await visible(status(page).getByText('1,000 files loaded; scroll for more.'));
    await visible(status(page).getByText(/sorted by the server over the whole folder/));
    await visible(page.getByRole('row', { name: new RegExp(LAST.replace('.', '\\.')) }));
    await page.getByTestId('files-scroll').evaluate((box) => {
      box.scrollTop = box.scrollHeight;
    });
    await visible(status(page).getByText('2,000 files loaded; scroll for more.'));
    await page.getByLabel('Sort files').selectOption({ label: 'Name A–Z' });

    // Several files deleted together, after a confirmation naming how many.
    await page.getByLabel('Search files by name').fill('obj-0000');
    await visible(status(page).getByText('10 files loaded. End of list.'));
    await page.getByRole('checkbox', { name: 'Select all loaded files' }).click();
    await visible(page.getByText('10 files selected'));
    await page.getByRole('checkbox', { name: 'Select obj-00003.txt' }).click();
    await visible(page.getByText('9 files selected'));
    await snap(page, 'storage-scale-selected-desktop');
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const confirm = page.getByRole('alertdialog');
    await visible(confirm.getByText('Delete 9 files?'));
    await confirm.getByRole('button', { name: 'Delete 9 files' }).click();
    await toast(page, 'Files deleted');
    await visible(status(page).getByText('1 file loaded. End of list.'));
    await visible(page.getByRole('row', { name: /obj-00003\.txt/ }));
    const left = await api('/object/list-v2/bulk', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: 'obj-0000' }),
    });
    expect(((await left.json()) as { objects: { name: string }[] }).objects.map((o) => o.name)).toEqual([
      'obj-00003.txt',
    ]);
  });

  it.skipIf(engine !== 'sqlite')(
    'shows the long list at 375 px and in dark mode, saving screenshots to review',
    async () => {
      await forEachLook(session, lin, async (page, suffix) => {
        await openStorage(page);
        await visible(page.getByRole('row', { name: /obj-00010\.txt/ }));
        await visible(status(page).getByText(/loaded; scroll for more/));
        await page.getByRole('checkbox', { name: 'Select obj-00012.txt' }).click();
        await visible(page.getByText('1 file selected'));
        await snap(page, `storage-scale-${suffix}`);
        await scrollToEnd(page);
        await visible(page.getByRole('row', { name: new RegExp(LAST.replace('.', '\\.')) }));
        await snap(page, `storage-scale-end-${suffix}`);
      });
    },
  );
});
