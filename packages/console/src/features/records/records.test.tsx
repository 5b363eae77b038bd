import type { RecordRow, TableResponse } from '@basalt/shared';
import { createClient } from '@supabase/supabase-js';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, FAKE_ORIGIN, type FakeRequest, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';

// The table page's Data tab against a fake server: the grid, paging, and the record form's round trips, all
// through /api/tables/{id}/records.

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const notes: TableResponse = {
  id: 7,
  name: 'notes',
  description: null,
  schema: {
    id: { type: 'number', required: true, unique: true },
    body: { type: 'text', required: true, unique: false },
    meta: { type: 'json', required: false, unique: false },
    done: { type: 'boolean', required: false, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const row = (id: number, fields: Partial<RecordRow> = {}): RecordRow => ({
  id,
  body: `Note ${id}`,
  meta: null,
  done: null,
  created_at: '2026-01-02T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  ...fields,
});

/** serveNotes answers like the server for a table of `total` notes, paged with offset and limit. */
function serveNotes(total: number, extra: Record<string, (request: FakeRequest) => Response> = {}) {
  const all = Array.from({ length: total }, (_, i) => row(i + 1, i === 0 ? { meta: { tags: ['a'] }, done: true } : {}));
  const backend = createFakeBackend({
    'GET /api/tables/7': () => json(200, notes),
    'GET /api/tables/7/records': (request) => {
      const offset = Number(request.url.searchParams.get('offset') ?? 0);
      const limit = Number(request.url.searchParams.get('limit') ?? 100);
      return json(200, { data: all.slice(offset, offset + limit), total, limit, offset });
    },
    ...extra,
  });
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  const data = createClient(FAKE_ORIGIN, 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: (table: string) => data.from(table) };
  return backend;
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('the Data tab', () => {
  it('shows a column per field plus Actions, objects as JSON text and null as empty', async () => {
    serveNotes(2);
    renderApp('/tables/7');
    const grid = await screen.findByRole('table', { name: 'Records' });
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['', 'idnumber', 'bodytext', 'metajson', 'doneboolean', 'Actions']);
    const [first, second] = within(grid).getAllByRole('row').slice(1);
    expect(
      within(first as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['', '1', 'Note 1', '{"tags":["a"]}', 'true', '']);
    expect(within(second as HTMLElement).getAllByRole('cell')[3]).toHaveTextContent('');
    expect(screen.getByRole('heading', { level: 1, name: 'notes' })).toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2')).toBeInTheDocument();
  });

  it('says when there are no records and offers to add the first', async () => {
    serveNotes(0);
    const user = userEvent.setup();
    renderApp('/tables/7');
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add your first record' }));
    expect(await screen.findByRole('dialog', { name: 'Add Record to notes' })).toBeInTheDocument();
  });

  it('pages on the server: 25 rows a page with the range and the total', async () => {
    const backend = serveNotes(60);
    const user = userEvent.setup();
    const { router } = renderApp('/tables/7');
    expect(await screen.findByText('Showing 1–25 of 60')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Showing 26–50 of 60')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('Showing 51–60 of 60')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    const last = backend.find('GET', '/api/tables/7/records').at(-1);
    expect(last?.url.searchParams.get('offset')).toBe('50');
    expect(last?.url.searchParams.get('limit')).toBe('25');
    expect(last?.url.searchParams.get('order')).toBe('asc');
  });

  it('moves a page past the end back to the last page', async () => {
    serveNotes(30);
    const { router } = renderApp('/tables/7?page=9');
    expect(await screen.findByText('Showing 26–30 of 30')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
  });
});

/** serveMillion answers like the server for a table of a million notes, made only for the page asked. */
function serveMillion() {
  const total = 1_000_000;
  const backend = createFakeBackend({
    'GET /api/tables/7': () => json(200, notes),
    'GET /api/tables/7/records': (request) => {
      const offset = Number(request.url.searchParams.get('offset') ?? 0);
      const limit = Number(request.url.searchParams.get('limit') ?? 100);
      const desc = request.url.searchParams.get('order') === 'desc';
      const count = Math.max(0, Math.min(limit, total - offset));
      const data = Array.from({ length: count }, (_, i) => row(desc ? total - offset - i : offset + i + 1));
      return json(200, { data, total, limit, offset });
    },
  });
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
  return backend;
}

describe('a table of a million records', () => {
  it('pages to the end with one page read per turn', async () => {
    const backend = serveMillion();
    const user = userEvent.setup();
    renderApp('/tables/7');
    expect(await screen.findByText('Showing 1–25 of 1,000,000')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 40,000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('Showing 999,976–1,000,000 of 1,000,000')).toBeInTheDocument();
    const reads = backend.find('GET', '/api/tables/7/records');
    expect(reads).toHaveLength(2);
    expect(reads.at(-1)?.url.searchParams.get('offset')).toBe('999975');
    // Nothing else counts the table: the total comes with each page (the server's kept count).
    expect(backend.requests.filter((r) => r.url.pathname.startsWith('/rest/v1/'))).toHaveLength(0);
  });

  it('sorts on the server by a column header: ascending, descending, then by id again', async () => {
    const backend = serveMillion();
    const user = userEvent.setup();
    const { router } = renderApp('/tables/7?page=3');
    const grid = await screen.findByRole('table', { name: 'Records' });
    const body = within(grid).getByRole('columnheader', { name: /body/ });
    expect(body).toHaveAttribute('aria-sort', 'none');
    await user.click(within(body).getByRole('button'));
    await waitFor(() => expect(body).toHaveAttribute('aria-sort', 'ascending'));
    expect(router.state.location.search).toBe('?sort=body');
    let last = backend.find('GET', '/api/tables/7/records').at(-1);
    expect(last?.url.searchParams.get('orderBy')).toBe('body');
    expect(last?.url.searchParams.get('order')).toBe('asc');
    expect(last?.url.searchParams.get('offset')).toBe('0');
    await user.click(within(body).getByRole('button'));
    await waitFor(() => expect(body).toHaveAttribute('aria-sort', 'descending'));
    last = backend.find('GET', '/api/tables/7/records').at(-1);
    expect(last?.url.searchParams.get('order')).toBe('desc');
    expect(router.state.location.search).toBe('?sort=body&dir=desc');
    await user.click(within(body).getByRole('button'));
    await waitFor(() => expect(body).toHaveAttribute('aria-sort', 'none'));
    expect(backend.find('GET', '/api/tables/7/records').at(-1)?.url.searchParams.get('orderBy')).toBe('id');
  });

  it('draws only the rows in view of a page of 1,000', async () => {
    // happy-dom lays nothing out: the scroll box is given the height a browser would give it.
    const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get(this: Element) {
        return this.getAttribute('data-testid') === 'records-scroll' ? 410 : 0;
      },
    });
    onTestFinished(() => {
      if (height) Object.defineProperty(HTMLElement.prototype, 'clientHeight', height);
    });
    serveMillion();
    const user = userEvent.setup();
    renderApp('/tables/7');
    await screen.findByText('Showing 1–25 of 1,000,000');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '1000');
    expect(await screen.findByText('Showing 1–1,000 of 1,000,000')).toBeInTheDocument();
    const grid = screen.getByRole('table', { name: 'Records' });
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeGreaterThan(1));
    const drawn = within(grid).getAllByRole('row').length - 1;
    expect(drawn).toBeLessThan(100);
    expect(grid).toHaveAttribute('aria-rowcount', '1001');
    // Scrolled down, the rows in view are drawn instead of the first ones.
    const box = screen.getByTestId('records-scroll');
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 410 });
    box.scrollTop = 41 * 500;
    fireEvent.scroll(box);
    expect(await within(grid).findByRole('cell', { name: 'Note 501' })).toBeInTheDocument();
    expect(within(grid).queryByRole('cell', { name: 'Note 1' })).not.toBeInTheDocument();
  });
});

describe('the record form', () => {
  it('adds a record with the cleaned payload', async () => {
    const backend = serveNotes(1, {
      'POST /api/tables/7/records': (request) => json(201, row(2, Object(request.body))),
    });
    const user = userEvent.setup();
    renderApp('/tables/7');
    await user.click(await screen.findByRole('button', { name: 'Add Record' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Record to notes' });
    await user.type(within(dialog).getByRole('textbox', { name: 'body' }), 'Buy milk');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'done' }), 'False');
    await user.click(within(dialog).getByRole('button', { name: 'Add Record' }));
    expect(await screen.findByText('Record created')).toBeInTheDocument();
    expect(screen.getByText('Your new record has been created successfully.')).toBeInTheDocument();
    expect(backend.find('POST', '/api/tables/7/records')[0]?.body).toEqual({ body: 'Buy milk', done: false });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows "Failed to create record" with the server message and keeps the form', async () => {
    serveNotes(1, {
      'POST /api/tables/7/records': () =>
        json(409, { code: '23505', message: 'duplicate key value violates unique constraint "notes_body_key"' }),
    });
    const user = userEvent.setup();
    renderApp('/tables/7');
    await user.click(await screen.findByRole('button', { name: 'Add Record' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Record to notes' });
    await user.type(within(dialog).getByRole('textbox', { name: 'body' }), 'Note 1');
    await user.click(within(dialog).getByRole('button', { name: 'Add Record' }));
    expect(await screen.findByText('Failed to create record')).toBeInTheDocument();
    expect(screen.getByText('duplicate key value violates unique constraint "notes_body_key"')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add Record to notes' })).toBeInTheDocument();
  });

  it('edits a record in the same form and sends every field', async () => {
    const backend = serveNotes(1, {
      'PATCH /api/tables/7/records/1': (request) => json(200, row(1, Object(request.body))),
    });
    const user = userEvent.setup();
    renderApp('/tables/7');
    await user.click(await screen.findByRole('button', { name: 'Edit record 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Record 1' });
    const body = within(dialog).getByRole('textbox', { name: 'body' });
    expect(body).toHaveValue('Note 1');
    await user.clear(body);
    await user.type(body, 'Buy bread');
    await user.clear(within(dialog).getByRole('textbox', { name: 'meta' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Record updated')).toBeInTheDocument();
    const [patch] = backend.find('PATCH', '/api/tables/7/records/1');
    expect(patch?.body).toEqual({ body: 'Buy bread', meta: null, done: true });
  });

  it('deletes a record after confirming', async () => {
    const backend = serveNotes(1, {
      'DELETE /api/tables/7/records/1': () => json(200, { success: true, message: 'Record deleted successfully' }),
    });
    const user = userEvent.setup();
    renderApp('/tables/7');
    await user.click(await screen.findByRole('button', { name: 'Delete record 1' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Record deleted')).toBeInTheDocument();
    expect(screen.getByText('The record has been deleted successfully.')).toBeInTheDocument();
    expect(backend.find('DELETE', '/api/tables/7/records/1')).toHaveLength(1);
  });
});

describe('the grid’s tools', () => {
  it('edits a cell in place: Enter saves that one column, Escape puts it back', async () => {
    const backend = serveNotes(2, {
      'PATCH /api/tables/7/records/2': (request) => json(200, row(2, Object(request.body))),
    });
    const user = userEvent.setup();
    renderApp('/tables/7');
    await user.dblClick(await screen.findByRole('cell', { name: 'Note 2' }));
    const input = screen.getByRole('textbox', { name: 'Edit body' });
    await user.clear(input);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit body' })).not.toBeInTheDocument();
    expect(backend.find('PATCH', '/api/tables/7/records/2')).toHaveLength(0);
    await user.dblClick(screen.getByRole('cell', { name: 'Note 2' }));
    await user.clear(screen.getByRole('textbox', { name: 'Edit body' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('"body" is required');
    await user.type(screen.getByRole('textbox', { name: 'Edit body' }), 'Call Ada{Enter}');
    await waitFor(() => expect(backend.find('PATCH', '/api/tables/7/records/2')).toHaveLength(1));
    expect(backend.find('PATCH', '/api/tables/7/records/2')[0]?.body).toEqual({ body: 'Call Ada' });
  });

  it('filters on the server and keeps the filters in the address', async () => {
    const backend = serveNotes(3);
    const user = userEvent.setup();
    const { router } = renderApp('/tables/7');
    await screen.findByRole('cell', { name: 'Note 1' });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter column' }), 'body');
    await user.type(screen.getByRole('textbox', { name: 'Filter value' }), 'Note 2');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    await waitFor(() =>
      expect(backend.find('GET', '/api/tables/7/records').at(-1)?.url.searchParams.get('body')).toBe('ilike.*Note 2*'),
    );
    expect(router.state.location.search).toBe('?filter=body%3Ahas%3ANote+2');
    await user.click(screen.getByRole('button', { name: 'Remove filter body contains Note 2' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('deletes the checked records in one call after confirming', async () => {
    const backend = serveNotes(3, {
      'DELETE /api/tables/7/records': () => json(200, { success: true, deleted: 2, ids: [1, 3] }),
    });
    const user = userEvent.setup();
    renderApp('/tables/7');
    await user.click(await screen.findByRole('checkbox', { name: 'Select record 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select record 3' }));
    expect(screen.getByRole('checkbox', { name: 'Select all records on this page' })).toHaveAttribute(
      'data-state',
      'indeterminate',
    );
    await user.click(screen.getByRole('button', { name: 'Delete 2 selected' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('2 records were deleted from notes.')).toBeInTheDocument();
    expect(backend.find('DELETE', '/api/tables/7/records')[0]?.body).toEqual({ ids: [1, 3] });
  });
});
