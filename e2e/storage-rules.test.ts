import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOf, signUpEndUser } from './support/app-api.js';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, SCREENSHOT_DIR, startConsoleSession } from './support/console-server.js';
import { toast, visible } from './support/console-waits.js';

// The Storage page beyond files (storage.test.ts): a bucket's access rules in plain words and changed there (then
// met by the app's end user and visitors), a signed URL for a chosen time (it works, and expires when chosen),
// large files uploaded resumably with TUS (several chunks, a failed request retried, paused and resumed; the stored
// bytes are the file's), the dashboard counting stored files, at 375 px the help button covering no row, a public
// bucket's keyless URL, and emptying a bucket.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };
const MB = 1024 * 1024;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function openStorage(page: Page): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Storage' });
  if (await link.isVisible()) await link.click();
  else await page.goto('/storage');
  await visible(page.getByRole('heading', { level: 1, name: 'Storage' }));
}

/** overlaps tells whether two boxes share any pixel. */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('an element has no box');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

describe.skipIf(skip)('Storage page: rules, signed URL expiry, resumable uploads, usage, phone layout', () => {
  let session: ConsoleSession;
  let page: Page;
  let token: string;
  beforeAll(async () => {
    session = await startConsoleSession();
    ({ page } = await openConsolePage(session, 'desktop'));
    await registerAndSignIn(page, ada);
    token = await accessToken(page);
  });
  afterAll(() => session?.close());

  /** stored reads an object's bytes as the account. */
  const stored = async (name: string) => {
    const res = await fetch(`${session.server.url}/storage/v1/object/avatars/${name}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };

  it('says the bucket’s rules in plain words, changes them, and the app’s users meet the new rules', async () => {
    await openStorage(page);
    await page.getByRole('button', { name: 'New Bucket' }).click();
    await page.getByLabel('Bucket name').fill('avatars');
    // Limits at creation: a wrong type is said before anything is sent.
    await page.getByLabel('Largest file (MB)').fill('20');
    await page.getByLabel('Allowed file types').fill('text/*, images');
    await visible(page.getByText('images is not a MIME type such as image/png or image/*'));
    expect(await page.getByRole('button', { name: 'Create bucket' }).isDisabled()).toBe(true);
    await shot(page, 'storage-new-bucket-desktop');
    await page.getByLabel('Allowed file types').fill('text/*, image/*, application/octet-stream');
    await page.getByRole('button', { name: 'Create bucket' }).click();
    await toast(page, 'Bucket created');
    const created = await fetch(`${session.server.url}/storage/v1/bucket/avatars`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await created.json()).toMatchObject({
      file_size_limit: 20 * MB,
      allowed_mime_types: ['text/*', 'image/*', 'application/octet-stream'],
    });
    const rules = page.getByRole('region', { name: 'Access rules of avatars' });
    await visible(
      rules.getByText(
        'Only you (and your server, with the app service key) can read, upload, replace or delete files.',
      ),
    );

    // The app's end user and a visitor, before: nothing.
    const app = await appOf(session, token);
    const user = await signUpEndUser(session, app, 'reader@example.com');
    const upload = (name: string, bearer: string) =>
      fetch(`${session.server.url}/storage/v1/object/avatars/${name}`, {
        method: 'POST',
        headers: { apikey: app.anonKey, authorization: `Bearer ${bearer}`, 'content-type': 'text/plain' },
        body: `bytes of ${name}`,
      });
    expect((await upload(`${user.id}/face.txt`, user.token)).status).toBe(403);

    await rules.getByRole('button', { name: 'Edit rules' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Read files').selectOption('public');
    await dialog.getByLabel('Upload files').selectOption('own');
    await visible(
      dialog.getByText(
        'Anyone can read; signed-in users (in their own folder) can upload; only you can replace or delete.',
      ),
    );
    await visible(dialog.getByText('Signed-in users can upload to their own folder.'));
    await shot(page, 'storage-rules-dialog-desktop');
    await dialog.getByRole('button', { name: 'Save rules' }).click();
    await toast(page, 'Access rules saved');
    await visible(rules.getByText('Anyone can read files, even signed out.'));
    await visible(rules.getByText('Signed-in users can upload to their own folder.'));
    await visible(rules.getByText('Only you (and your server, with the app service key) can delete files.'));
    await shot(page, 'storage-rules-desktop');

    // After: the user uploads into their own folder only, and a visitor with the app's key reads it.
    expect((await upload(`${user.id}/face.txt`, user.token)).status).toBe(200);
    expect((await upload('someone-else/face.txt', user.token)).status).toBe(403);
    const read = await fetch(`${session.server.url}/storage/v1/object/avatars/${user.id}/face.txt`, {
      headers: { apikey: app.anonKey },
    });
    expect(await read.text()).toBe(`bytes of ${user.id}/face.txt`);
  });

  it('copies a signed URL that works for the chosen time, refusing a bad number of seconds', async () => {
    await page
      .getByLabel('Upload files')
      .setInputFiles([{ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, signed') }]);
    await toast(page, 'Uploaded');
    const claimsOf = (url: string) => {
      const signed = new URL(url).searchParams.get('token') ?? '';
      return JSON.parse(Buffer.from(signed.split('.')[0] ?? '', 'base64url').toString()) as { e: number };
    };
    const sign = async (choose: (dialog: Locator) => Promise<void>, lifetime: string) => {
      await page.getByRole('button', { name: 'Copy a signed URL of hello.txt' }).click();
      const dialog = page.getByRole('dialog');
      await choose(dialog);
      const before = Math.floor(Date.now() / 1000);
      await dialog.getByRole('button', { name: 'Copy URL' }).click();
      await visible(page.getByText(`It works for ${lifetime}.`));
      const url = await page.evaluate(() => navigator.clipboard.readText());
      return { url, left: claimsOf(url).e - before };
    };

    // A week, from the list.
    const week = await sign((dialog) => dialog.getByLabel('Expires after').selectOption('604800').then(), '1 week');
    expect(week.left).toBeGreaterThanOrEqual(604_800 - 2);
    expect(week.left).toBeLessThanOrEqual(604_800 + 2);
    expect(await (await fetch(week.url)).text()).toBe('hello, signed');

    // Custom seconds: messages for what cannot be, then 2 seconds, after which the URL no longer works.
    const short = await sign(async (dialog) => {
      await dialog.getByLabel('Expires after').selectOption('custom');
      const seconds = dialog.getByLabel('Seconds');
      const copy = dialog.getByRole('button', { name: 'Copy URL' });
      await seconds.fill('ten');
      await visible(dialog.getByText('Enter a whole number of seconds, such as 300'));
      expect(await copy.isDisabled()).toBe(true);
      await seconds.fill('0');
      await visible(dialog.getByText('A signed URL must work for at least 1 second'));
      await seconds.fill('999999999');
      await visible(dialog.getByText('At most 315,360,000 seconds (ten years)'));
      expect(await copy.isDisabled()).toBe(true);
      await shot(page, 'storage-signed-url-invalid-desktop');
      await seconds.fill('2');
    }, '2 seconds');
    expect(short.left).toBeGreaterThanOrEqual(1);
    expect(short.left).toBeLessThanOrEqual(3);
    expect(await (await fetch(short.url)).text()).toBe('hello, signed');
    await new Promise((resolve) => setTimeout(resolve, (short.left + 1.5) * 1000));
    const expired = await fetch(short.url);
    expect(expired.status).toBe(400);
  });

  it('uploads large files resumably in chunks: a failed request is retried, a paused upload resumes', async () => {
    // A file of 13 MB is three PATCHes of 6 MB at most; the first PATCH is cut, and tus-js-client continues.
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/upload/resumable/')) patches.push(request.url());
    });
    let cut = false;
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (route.request().method() === 'PATCH' && !cut) {
        cut = true;
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });
    const first = randomBytes(13 * MB);
    await page
      .getByLabel('Upload files')
      .setInputFiles([{ name: 'big-one.bin', mimeType: 'application/octet-stream', buffer: first }]);
    await toast(page, 'Uploaded');
    expect(await page.getByRole('progressbar', { name: 'Upload of big-one.bin' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
    expect(cut).toBe(true);
    expect(patches.length).toBeGreaterThanOrEqual(4);
    expect(sha(await stored('big-one.bin'))).toBe(sha(first));
    await page.unroute('**/storage/v1/upload/resumable/**');

    // Each PATCH held a second, so the person can pause in the middle and resume later.
    await page.route('**/storage/v1/upload/resumable/**', async (route) => {
      if (route.request().method() === 'PATCH') await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue().catch(() => {
        // Paused meanwhile: the browser dropped the request.
      });
    });
    const second = randomBytes(13 * MB);
    await page
      .getByLabel('Upload files')
      .setInputFiles([{ name: 'big-two.bin', mimeType: 'application/octet-stream', buffer: second }]);
    await page.getByRole('button', { name: 'Pause upload of big-two.bin' }).click();
    await visible(page.getByRole('button', { name: 'Resume upload of big-two.bin' }));
    await visible(page.getByText('Paused'));
    await shot(page, 'storage-upload-paused-desktop');
    await page.getByRole('button', { name: 'Resume upload of big-two.bin' }).click();
    await toast(page, 'Uploaded');
    await page.unroute('**/storage/v1/upload/resumable/**');
    expect(sha(await stored('big-two.bin'))).toBe(sha(second));
    await visible(page.getByRole('row', { name: /big-two\.bin/ }));
  });

  it('counts the stored files on the dashboard’s Database Size card', async () => {
    await page.goto('/');
    const card = page.getByRole('link', { name: /Database Size/ });
    await visible(card);
    // 26 MB of the two large files, and a few bytes more.
    await visible(card.getByText(/Files 26\.0 MB/));
    expect(await card.textContent()).toMatch(/Database \d+(\.\d)? [KM]B · Files 26\.0 MB/);
    await shot(page, 'storage-dashboard-desktop');
  });

  it('at 375 px the help button covers nothing a person taps, at rest or scrolled to the end; light and dark', async () => {
    await forEachLook(session, ada, async (look, suffix) => {
      await openStorage(look);
      await visible(look.getByRole('row', { name: /hello\.txt/ }));
      await shot(look, `storage-more-${suffix}`);
      const help = look.getByRole('button', { name: 'Help' });
      // Whatever a person taps: buttons, links, the upload picker's label, inputs.
      const buttons = look.locator('main').locator('button, a, label, input:not(.sr-only)');
      const covered = async () => {
        const names: string[] = [];
        for (const button of await buttons.all()) {
          if ((await button.isVisible()) && (await overlaps(help, button))) {
            names.push((await button.getAttribute('aria-label')) ?? (await button.innerText()));
          }
        }
        return names;
      };
      // At rest, as the page opens, and scrolled to the end, as a person reaching the last file.
      expect(await covered()).toEqual([]);
      await look.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const lastDelete = look
        .getByRole('table', { name: 'Files' })
        .getByRole('button', { name: /^Delete / })
        .last();
      await visible(lastDelete);
      expect(await overlaps(help, lastDelete)).toBe(false);
      expect(await covered()).toEqual([]);
      await look.screenshot({ path: path.join(SCREENSHOT_DIR, `storage-end-${suffix}.png`) });
      // The rules editor and the signed URL's dialog in this look.
      await look.evaluate(() => window.scrollTo(0, 0));
      await look.getByRole('button', { name: 'Edit rules' }).click();
      await visible(look.getByRole('dialog').getByLabel('Read files'));
      await look.screenshot({ path: path.join(SCREENSHOT_DIR, `storage-rules-dialog-${suffix}.png`) });
      await look.keyboard.press('Escape');
      await look.getByRole('button', { name: 'Copy a signed URL of hello.txt' }).click();
      await look.getByRole('dialog').getByLabel('Expires after').selectOption('custom');
      await look.getByRole('dialog').getByLabel('Seconds').fill('0');
      await visible(look.getByText('A signed URL must work for at least 1 second'));
      await look.screenshot({ path: path.join(SCREENSHOT_DIR, `storage-signed-url-${suffix}.png`) });
      await look.keyboard.press('Escape');
      // From 640 px up the help button floats at the bottom right; narrower, it ends the page.
      const position = await help.evaluate((el) => getComputedStyle(el.closest('div') ?? el).position);
      expect(position).toBe(suffix.startsWith('phone') ? 'static' : 'fixed');
    });
  });

  it('copies a public bucket’s keyless URL, and empties a bucket keeping its rules', async () => {
    await openStorage(page);
    await page.getByRole('button', { name: 'Settings of bucket avatars' }).click();
    await page.getByLabel('Public (anyone with the link can read)').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Bucket updated');
    const rules = page.getByRole('region', { name: 'Access rules of avatars' });
    await visible(rules.getByText(/The bucket is public/));
    await page.getByRole('button', { name: 'Copy a signed URL of hello.txt' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy public URL' }).click();
    await toast(page, 'Public URL copied');
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toBe(`${session.server.url}/storage/v1/object/public/avatars/hello.txt`);
    expect(await (await fetch(url)).text()).toBe('hello, signed');

    await page.getByRole('button', { name: 'Empty bucket avatars' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Empty bucket' }).click();
    await toast(page, 'Bucket emptied');
    await visible(page.getByText('This folder is empty. Drop files here or upload them to get started.'));
    expect((await fetch(url)).status).toBe(404);
    await visible(rules.getByText('Anyone can read files, even signed out.'));
  });
});
