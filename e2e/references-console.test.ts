import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/chromium.js';
import { accessToken, registerAndSignIn } from './support/console-account.js';
import { forEachLook, openConsolePage, shot } from './support/console-page.js';
import { type ConsoleSession, startConsoleSession } from './support/console-server.js';
import { visible } from './support/console-waits.js';
import { createTableThroughApi, postRest } from './support/server-api.js';

// References in the console, against the real server: the grid shows a referenced row by its label and id, a
// reference cell is edited with the picker (the server searches and pages), a row page lists the rows that
// reference it, and the Schema Editor draws a design's references as arrows and makes them real columns.

const skip = browserSkipReason();
const ada = { username: 'ada_refs', email: 'ada.refs@example.com', password: 'Engines!1843' };

const grid = (page: Page) => page.getByRole('table', { name: 'Records' });
const authorCell = (page: Page, row: number) => grid(page).getByRole('row').nth(row).getByRole('cell').nth(3);

describe.skipIf(skip)('references in the console, in Chromium', () => {
  let session: ConsoleSession;
  let token = '';
  let authorsId = 0;
  let postsId = 0;
  let projectId = '';

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${session.server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { id?: unknown } };
  };

  beforeAll(async () => {
    session = await startConsoleSession();
  });
  afterAll(() => session?.close());

  it('shows labels, edits with the picker, lists what references a row, and draws a design with arrows', async () => {
    const { page, context } = await openConsolePage(session, 'desktop');
    await registerAndSignIn(page, ada);
    token = await accessToken(page);
    authorsId = await createTableThroughApi(session, token, {
      name: 'authors',
      description: 'Who writes',
      schema: { born: { type: 'number' }, name: { type: 'text' } },
    });
    postsId = await createTableThroughApi(session, token, {
      name: 'posts',
      description: 'What they write',
      schema: { title: { type: 'text' }, author_id: { type: 'number', references: { table: 'authors' } } },
    });
    const people = Array.from({ length: 30 }, (_, i) => ({ name: `Author ${i + 1}`, born: 1900 + i }));
    expect((await postRest(session, token, 'authors', people, 'return=minimal')).status).toBe(201);
    const posts = [
      { title: 'First', author_id: 2 },
      { title: 'Second', author_id: 2 },
      { title: 'Third', author_id: null },
    ];
    expect((await postRest(session, token, 'posts', posts, 'return=minimal')).status).toBe(201);

    // The grid: the first text column of authors labels each reference, beside its id.
    await page.goto(`/tables/${postsId}`);
    await visible(authorCell(page, 1).getByText('Author 2'));
    expect(await authorCell(page, 2).textContent()).toBe('Author 2#2');
    await shot(page, 'references-grid-desktop');

    // The picker: search on the server, keyboard, and the pick saved.
    await authorCell(page, 3).dblclick();
    const picker = page.getByTestId('reference-picker');
    await visible(picker.getByRole('option').first());
    expect(await picker.getByText('25 of 30').count()).toBe(1);
    await picker.getByRole('button', { name: 'Load more' }).click();
    await visible(picker.getByText('30 of 30'));
    const search = picker.getByRole('combobox', { name: 'Search authors by name or id' });
    await search.fill('author 1');
    // Author 1 and Author 10 to 19, in label order.
    await visible(picker.getByText('11 of 11'));
    await shot(page, 'reference-picker-desktop');
    await search.press('ArrowDown');
    await search.press('Enter');
    await visible(authorCell(page, 3).getByText('Author 10'));
    const third = await api('GET', `/api/tables/${postsId}/records/3`);
    expect(third.body.author_id).toBe(10);

    // The record form picks a reference with the same picker.
    await page.getByRole('button', { name: 'Add Record' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Record to posts' });
    await add.getByLabel('title', { exact: true }).fill('Fourth');
    await add.getByRole('button', { name: 'Pick author_id' }).click();
    const formPicker = page.getByTestId('reference-picker');
    await formPicker.getByRole('combobox').fill('author 3');
    await visible(formPicker.getByText('2 of 2'));
    await formPicker.getByRole('combobox').press('Enter');
    await formPicker.waitFor({ state: 'hidden' });
    expect(await add.getByLabel('author_id', { exact: true }).inputValue()).toBe('3');
    await shot(page, 'reference-form-desktop');
    await add.getByRole('button', { name: 'Add Record' }).click();
    await add.waitFor({ state: 'hidden' });
    await visible(grid(page).getByText('Author 3', { exact: true }));

    // The row page of Author 2: the posts that reference it, linked.
    await page.goto(`/tables/${authorsId}/rows/2`);
    const group = page.getByRole('region', { name: 'posts.author_id' });
    await visible(group.getByRole('link', { name: 'First #1' }));
    expect(await group.getByRole('link').count()).toBe(2);
    await shot(page, 'row-referenced-by-desktop');
    await group.getByRole('link', { name: 'First #1' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'posts #1' }));
    await visible(page.getByRole('link', { name: 'Author 2 #2' }));

    // The column editor's Shown by: posts show their authors by the year they were born instead.
    await page.goto(`/tables/${postsId}/edit`);
    await visible(page.getByLabel('Column 3 shown by'));
    await page.getByLabel('Column 3 shown by').selectOption('born');
    const plan = page.getByRole('list', { name: 'Planned changes' });
    await visible(plan.getByText('Show the rows "author_id" references by "born"'));
    await visible(page.getByText('The existing records allow this change.'));
    await shot(page, 'reference-shown-by-desktop');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL(/tab=schema/);
    await page.goto(`/tables/${postsId}`);
    await visible(authorCell(page, 1).getByText('1901'));
    await page.goto(`/tables/${postsId}/edit`);
    await page.getByLabel('Column 3 shown by').selectOption('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL(/tab=schema/);

    // The Schema Editor: a design's reference is an arrow, and becomes a reference column.
    const project = await api('POST', '/api/projects', { name: 'Library' });
    projectId = String(project.body.id);
    const field = (name: string, type: string, extra = {}) => ({ id: `f-${name}`, name, type, ...extra });
    const layout = {
      version: 0,
      elements: [
        {
          id: 'w',
          name: 'writers',
          type: 'table',
          position: { x: 40, y: 40 },
          fields: [field('id', 'integer', { primary: true }), field('name', 'string')],
        },
        {
          id: 's',
          name: 'stories',
          type: 'table',
          position: { x: 420, y: 140 },
          fields: [
            field('sid', 'integer', { primary: true }),
            field('title', 'string'),
            field('writer_id', 'integer', { references: { table: 'writers' } }),
          ],
        },
      ],
    };
    expect((await api('POST', `/api/projects/${projectId}/schema`, { layout })).status).toBe(200);
    await page.goto(`/schema-editor?project=${projectId}`);
    await visible(page.getByTestId('table-node-stories'));
    await visible(page.locator('.react-flow__edge'));
    expect(await page.locator('.react-flow__edge').count()).toBe(1);
    expect(await page.getByLabel('writer_id references').inputValue()).toBe('writers');
    await shot(page, 'schema-editor-references-desktop');
    await page.getByRole('button', { name: 'Create tables from this design' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create tables from this design' });
    await visible(dialog.getByText('Add column writer_id (number, references writers)'));
    await dialog.getByRole('button', { name: 'Create tables' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const tables = (await api('GET', '/api/tables')).body as unknown as Array<{
      name: string;
      schema: Record<string, { references?: unknown }>;
    }>;
    expect(tables.find((t) => t.name === 'stories')?.schema.writer_id?.references).toEqual({
      table: 'writers',
      onDelete: 'restrict',
    });
    await context.close();

    await forEachLook(session, ada, async (look, suffix) => {
      await look.goto(`/tables/${postsId}`);
      await visible(authorCell(look, 1).getByText('Author 2'));
      await shot(look, `references-grid-${suffix}`);
      await authorCell(look, 1).dblclick();
      await visible(look.getByTestId('reference-picker').getByRole('option').first());
      await shot(look, `reference-picker-${suffix}`);
      await look.keyboard.press('Escape');
      await look.goto(`/tables/${authorsId}/rows/2`);
      await visible(look.getByRole('region', { name: 'posts.author_id' }).getByRole('link').first());
      await shot(look, `row-referenced-by-${suffix}`);
      await look.goto(`/schema-editor?project=${projectId}`);
      await visible(look.locator('.react-flow__edge'));
      await shot(look, `schema-editor-references-${suffix}`);
    });
  }, 240_000);
});
