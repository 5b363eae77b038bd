import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn, signInToDashboard } from './support/console-account.js';
import { forEachLook, openConsolePage, shot as screenshotFromTop } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { visible } from './support/console-waits.js';
import { createTableThroughApi } from './support/server-api.js';

// The API docs pages as a developer uses them: open /record-api, copy the runnable examples of a real table,
// put a real API key in, and RUN them — the cURL one with curl, the JavaScript one with node, the Python one
// with python3 and requests — against the server; then the Table API page and the OpenAPI reference with its
// download. Screenshots at desktop and phone widths, light and dark.

const skip = browserSkipReason();
const ada = { username: 'ada_l', email: 'ada@example.com', password: 'Engine!1843' };
const PLACEHOLDER = 'YOUR_API_KEY';
const run = promisify(execFile);

// What the machine has: each example runs only where its tool is installed, and says so when it cannot.
const hasCurl = spawnSync('curl', ['--version']).status === 0;
const hasPythonRequests = spawnSync('python3', ['-c', 'import requests']).status === 0;

async function shot(page: Page, name: string) {
  // The sign-in toast would cover the page in every picture: close it first.
  for (const close of await page.getByRole('button', { name: 'Close', exact: true }).all()) {
    await close.click().catch(() => undefined);
  }
  await screenshotFromTop(page, name);
}

/** copyExample clicks an example's copy button and returns what landed on the clipboard. */
async function copyExample(page: Page, language: string): Promise<string> {
  await page.getByRole('tab', { name: language, exact: true }).click();
  const code = page.getByTitle(`${language} example`);
  await visible(code);
  await page.getByRole('button', { name: `Copy ${language} example` }).click();
  await visible(page.getByRole('button', { name: 'Copied' }));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await code.textContent());
  return copied;
}

/** runExample writes a copied example, with the real key in place of the placeholder, and runs it. */
async function runExample(code: string, key: string, file: string, command: string): Promise<string> {
  expect(code).toContain(PLACEHOLDER);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-example-'));
  try {
    const target = path.join(dir, file);
    await fs.writeFile(target, code.replaceAll(PLACEHOLDER, key));
    const { stdout } = await run(command, [target], { timeout: 60_000 });
    return stdout;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe.skipIf(skip)('API docs in Chromium', () => {
  let session: ConsoleSession;
  let token = '';
  let tableId = 0;
  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  // The table's changes as the server recorded them: proof that an example really wrote.
  async function historyText(): Promise<string> {
    const response = await fetch(`${session.server.url}/api/history?tableId=${tableId}&limit=100`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  it('runs the copied cURL, JavaScript and Python examples against the server', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    token = await accessToken(page);

    // A table with a column of each type (one unique, so a second run would clash if a run left its record),
    // and an API key, both through the server's own APIs.
    tableId = await createTableThroughApi(session, token, {
      name: 'orders',
      description: 'Customer orders',
      schema: {
        id: { type: 'number', required: true, unique: true },
        title: { type: 'text', required: true },
        sku: { type: 'text', unique: true },
        qty: { type: 'number' },
        paid: { type: 'boolean' },
        due_at: { type: 'date' },
        meta: { type: 'json' },
        tags: { type: 'array' },
      },
    });
    const keyResponse = await fetch(`${session.server.url}/api/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Docs examples' }),
    });
    expect(keyResponse.status).toBe(201);
    const { key } = (await keyResponse.json()) as { key: string };
    expect(key).toMatch(/^bsk_/);

    // Through the sidebar, as a person finds the page.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Record API' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Record API' }));
    await visible(page.getByRole('button', { name: /^GET\s*List records/ }));
    await page.getByRole('button', { name: /^POST\s*Create a record/ }).click();
    await visible(page.getByRole('list', { name: 'Body of Create a record' }));
    await shot(page, 'docs-record-api-desktop');

    await page.getByRole('tab', { name: 'Examples' }).click();
    await visible(page.getByTitle('JavaScript example'));
    await shot(page, 'docs-record-api-examples-desktop');

    // cURL, in a POSIX shell; without curl on this machine, the same requests go through fetch instead.
    const curl = await copyExample(page, 'cURL');
    expect(curl).toContain(`BASE_URL='${session.server.url}/api/table/orders'`);
    if (hasCurl) {
      const out = await runExample(curl, key, 'records.sh', 'sh');
      expect(out).toMatch(/^Created \{"id":\d+,"title":"Hello from the API","sku":"SKU-0001","qty":3,"paid":true,/);
      expect(out).toContain('"title":"Hello from the API (updated)"');
      expect(out).toContain('{"success":true,"message":"Record deleted successfully"}');
    } else {
      console.warn('curl is not installed: the cURL example was copied but not run.');
    }

    // JavaScript, as an ES module with node's fetch.
    const javascript = await copyExample(page, 'JavaScript');
    const jsOut = await runExample(javascript, key, 'records.mjs', process.execPath);
    expect(jsOut).toMatch(/Created \{\n\s+id: \d+,\n\s+title: 'Hello from the API',/);
    expect(jsOut).toMatch(/Read \{\n\s+id: \d+,\n\s+title: 'Hello from the API',/);
    expect(jsOut).toContain("tags: [ 'new', 'featured' ]");
    expect(jsOut).toContain("title: 'Hello from the API (updated)'");
    expect(jsOut).toContain("{ success: true, message: 'Record deleted successfully' }");

    // Python with requests, where python3 has it.
    if (hasPythonRequests) {
      const python = await copyExample(page, 'Python');
      const pyOut = await runExample(python, key, 'records.py', 'python3');
      expect(pyOut).toMatch(/Created \{'id': \d+, 'title': 'Hello from the API', 'sku': 'SKU-0001'/);
      expect(pyOut).toContain("'paid': True");
      expect(pyOut).toContain("{'success': True, 'message': 'Record deleted successfully'}");
    } else {
      console.warn('python3 with requests is not installed: the Python example was not run.');
    }

    // The server recorded every run: a create, an update and a delete each, and left the table as it was.
    const history = await historyText();
    const runs = 1 + (hasCurl ? 1 : 0) + (hasPythonRequests ? 1 : 0);
    expect(history.match(/RECORD_CREATE/g)?.length).toBe(runs);
    expect(history.match(/RECORD_DELETE/g)?.length).toBe(runs);
    const left = await fetch(`${session.server.url}/api/table/orders`, { headers: { Authorization: `Bearer ${key}` } });
    expect(left.headers.get('x-total-count')).toBe('0');

    await page.getByRole('tab', { name: 'Responses' }).click();
    await visible(page.getByLabel('Status codes'));
    await shot(page, 'docs-record-api-responses-desktop');
    await context.close();
  });

  it('lists the tables on /table-api and renders and downloads the OpenAPI reference', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await signInToDashboard(page, ada);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Table API' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Table API' }));
    await visible(page.getByText('8 fields'));
    await page.getByRole('button', { name: 'Copy GET /api/table/orders/{id}' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${session.server.url}/api/table/orders/{id}`,
    );
    await shot(page, 'docs-table-api-desktop');
    await page.getByRole('tab', { name: 'Authentication' }).click();
    await visible(page.getByText('Bearer API keys'));
    await shot(page, 'docs-table-api-auth-desktop');
    await page.getByRole('tab', { name: 'Examples' }).click();
    await visible(page.getByText('Page through records'));
    await shot(page, 'docs-table-api-examples-desktop');

    // The API page's Documentation tab leads to the reference.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API', exact: true }).click();
    await page.getByRole('tab', { name: 'Documentation' }).click();
    await visible(page.getByRole('cell', { name: '429' }));
    await shot(page, 'docs-api-documentation-desktop');
    await page.getByRole('link', { name: 'OpenAPI reference' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'OpenAPI reference' }));
    const operations = page.getByLabel('Operations of orders');
    await visible(operations);
    await operations.getByRole('button', { name: /List records of orders/ }).click();
    await visible(page.getByRole('list', { name: 'Parameters of List records of orders' }));
    await shot(page, 'docs-openapi-desktop');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download openapi.json' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('openapi.json');
    const file = await download.path();
    const document = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(['/api/table/orders', '/api/table/orders/{id}']);
    await context.close();
  });

  it('shows the Record API, Table API and API pages at 375 px wide and in the dark theme, saving screenshots to review', () =>
    forEachLook(session, ada, async (page, suffix) => {
      await page.goto('/record-api');
      await visible(page.getByRole('button', { name: /^GET\s*List records/ }));
      await shot(page, `docs-record-api-${suffix}`);
      await page.goto('/record-api?tab=examples');
      await visible(page.getByTitle('JavaScript example'));
      await shot(page, `docs-record-api-examples-${suffix}`);
      await page.goto('/table-api');
      await visible(page.getByText('8 fields'));
      await shot(page, `docs-table-api-${suffix}`);
      await page.getByRole('tab', { name: 'Examples' }).click();
      await visible(page.getByText('Page through records'));
      await shot(page, `docs-table-api-examples-${suffix}`);
      await page.goto('/api?tab=documentation');
      await visible(page.getByRole('cell', { name: '429' }));
      await shot(page, `docs-api-documentation-${suffix}`);
      await page.goto('/record-api/reference');
      await visible(page.getByLabel('Operations of orders'));
      await page.getByRole('button', { name: /Create a record in orders/ }).click();
      await visible(page.getByRole('list', { name: 'Request body of Create a record in orders' }));
      await shot(page, `docs-openapi-${suffix}`);
    }));
});
