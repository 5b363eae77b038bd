import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { settledDialog, toast, visible } from './support/console-waits.js';

// Settings › Backups as an administrator uses it: create a backup, refuse a schedule croner cannot read and save
// a good one, download the archive and upload it again, restore it (typing RESTORE) and see the data come back;
// then Settings › Account: export the account's tables and import them (a dry run first). Screenshots at 1280 and
// 375 px, light and dark.

const skip = browserSkipReason();
const grace = { username: 'grace_h', email: 'grace@example.com', password: 'Cobol!1959' };

async function openBackups(page: Page): Promise<void> {
  await page.goto('/settings?tab=backups');
  await visible(page.getByRole('heading', { name: 'Backups' }));
}

async function api(session: ConsoleSession, page: Page, method: string, url: string, body?: unknown) {
  const res = await fetch(`${session.server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

describe.skipIf(skip)('Backups in Chromium', () => {
  let session: ConsoleSession;
  let scratch: string;
  beforeAll(async () => {
    session = await startConsoleSession();
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-e2e-backups-'));
  });
  afterAll(async () => {
    await session?.close();
    await fs.rm(scratch, { recursive: true, force: true });
  });

  it('creates, schedules, downloads, uploads and restores backups', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, grace);
    await api(session, page, 'POST', '/api/tables', { name: 'orders', schema: { item: { type: 'text' } } });
    await openBackups(page);
    await visible(page.getByText('No backups yet'));

    await page.getByRole('button', { name: 'Create backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create backup' });
    await settledDialog(dialog);
    await dialog.getByLabel('Name').fill('Before the launch');
    await shot(page, 'backup-create-desktop');
    await dialog.getByRole('button', { name: 'Create backup' }).click();
    await toast(page, 'Backup Started');
    const row = page.getByRole('row', { name: /Before the launch/ });
    await visible(row.getByText('Completed', { exact: true }));

    // The schedule: a cron expression croner cannot read is refused under its field.
    await page.getByLabel('Schedule (cron)').fill('61 * * * *');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await visible(page.getByText(/Schedule is not a valid cron expression/));
    await page.getByLabel('Schedule (cron)').fill('30 2 * * *');
    await page.getByLabel('Keep').fill('14');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await toast(page, 'Schedule Saved');
    const schedule = await api(session, page, 'GET', '/api/backups/schedule');
    expect(schedule.body).toMatchObject({ enabled: true, cron: '30 2 * * *', keep: 14 });

    // Download, then upload the same archive: a second row, listed as uploaded.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download Before the launch' }).click(),
    ]);
    const archive = path.join(scratch, download.suggestedFilename());
    await download.saveAs(archive);
    expect((await fs.readFile(archive)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    await page.getByTestId('backup-upload-input').setInputFiles(archive);
    await toast(page, 'Archive Uploaded');
    await visible(page.getByText(/^Uploaded/));
    await shot(page, 'backups-desktop');

    // A table made after the backup is gone once it is restored.
    await api(session, page, 'POST', '/api/tables', { name: 'refunds', schema: { amount: { type: 'number' } } });
    await row.getByRole('button', { name: 'Restore Before the launch' }).click();
    const restore = page.getByRole('dialog', { name: 'Restore this backup?' });
    await settledDialog(restore);
    const confirm = restore.getByRole('button', { name: 'Restore' });
    expect(await confirm.isDisabled()).toBe(true);
    await restore.getByLabel('Type RESTORE to confirm').fill('RESTORE');
    await shot(page, 'backup-restore-desktop');
    await confirm.click();
    await visible(restore.getByText(/The instance now holds the backup's data/));
    await restore.getByRole('button', { name: 'Close', exact: true }).first().click();
    const tables = await api(session, page, 'GET', '/api/tables');
    expect(tables.body.map((t: { name: string }) => t.name)).toEqual(['orders']);
    await visible(page.getByText('Before a restore', { exact: false }));
  });

  it('exports the account and imports it again after a dry run', async () => {
    const { page } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' });
    await api(session, page, 'POST', '/api/tables', { name: 'notes', schema: { body: { type: 'text' } } });
    await api(session, page, 'POST', '/api/table/notes', { body: 'first' });
    await page.goto('/settings?tab=account');
    await visible(page.getByRole('heading', { name: 'Your data' }));
    // Ada administers nothing: no Backups tab.
    expect(await page.getByRole('tab', { name: 'Backups' }).count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    const archive = path.join(scratch, download.suggestedFilename());
    await download.saveAs(archive);
    await page.getByTestId('account-import-input').setInputFiles(archive);
    await visible(page.getByText('This archive would add 1 table with 1 row:'));
    await visible(page.getByRole('cell', { name: /notes_2\s*\(name taken\)/ }));
    await shot(page, 'account-import-desktop');
    await page.getByRole('button', { name: 'Import 1 table' }).click();
    await toast(page, 'Import Complete');
    const rows = await api(session, page, 'GET', '/api/table/notes_2');
    expect(rows.body.map((r: { body: string }) => r.body)).toEqual(['first']);
  });

  it('shows the backups list and the account data section at 375 px and in dark mode, saving screenshots to review', async () => {
    await forEachLook(session, grace, async (page, suffix) => {
      await openBackups(page);
      await visible(page.getByRole('row', { name: /Before the launch/ }));
      await shot(page, `backups-${suffix}`);
      await page.goto('/settings?tab=account');
      await visible(page.getByRole('heading', { name: 'Your data' }));
      await page.getByRole('heading', { name: 'Your data' }).scrollIntoViewIfNeeded();
      await shot(page, `account-data-${suffix}`);
    });
  });
});
