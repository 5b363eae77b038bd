import type { RecordRow, TableResponse } from '@basalt/shared';
import { createClient } from '@supabase/supabase-js';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, FAKE_ORIGIN, type FakeRequest, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';
import { labelColumnOf, referenceIdsOf } from './reference-labels';
import { searchFiltersOf } from './reference-picker.queries';

// Reference columns in the console: which column labels a referenced row, the labels of a page read in one call,
// the picker's server-side search, paging and keyboard, and the row page's "Referenced by".

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const stamp = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
const col = (type: 'text' | 'number', extra = {}) => ({ type, required: false, unique: false, ...extra });
const authors: TableResponse = {
  id: 3,
  name: 'authors',
  description: null,
  schema: { id: col('number', { required: true, unique: true }), born: col('number'), name: col('text') },
  ...stamp,
};
const posts: TableResponse = {
  id: 4,
  name: 'posts',
  description: null,
  schema: {
    id: col('number', { required: true, unique: true }),
    title: col('text'),
    author: col('number', { references: { table: 'authors', onDelete: 'restrict' } }),
  },
  ...stamp,
};
const times = { created_at: '2026-01-02T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z' };
const people: RecordRow[] = Array.from({ length: 60 }, (_, i) => ({
  id: i + 1,
  name: `Author ${i + 1}`,
  born: 1900 + i,
  ...times,
}));
const postRows: RecordRow[] = [
  { id: 1, title: 'First', author: 2, ...times },
  { id: 2, title: 'Second', author: 2, ...times },
  { id: 3, title: 'Third', author: null, ...times },
];

function page(rows: RecordRow[], request: FakeRequest) {
  const offset = Number(request.url.searchParams.get('offset') ?? 0);
  const limit = Number(request.url.searchParams.get('limit') ?? 100);
  return json(200, { data: rows.slice(offset, offset + limit), total: rows.length, limit, offset });
}

// The authors a request's filters select, as the server would: id=in.(…), id=eq.N, name=ilike.*x*.
function authorsFor(request: FakeRequest): RecordRow[] {
  const params = request.url.searchParams;
  const inIds = params.get('id')?.match(/^in\.\((.*)\)$/)?.[1];
  if (inIds) return people.filter((p) => inIds.split(',').map(Number).includes(p.id));
  const like = params.get('name')?.match(/^ilike\.\*(.*)\*$/)?.[1];
  if (like) return people.filter((p) => String(p.name).toLowerCase().includes(like.toLowerCase()));
  return people;
}

function serve() {
  const backend = createFakeBackend({
    'GET /rest/v1/tables': () => json(200, [posts, authors]),
    'GET /api/tables/4': () => json(200, posts),
    'GET /api/tables/3': () => json(200, authors),
    'GET /api/tables/4/records': (request) => {
      const author = request.url.searchParams.get('author');
      return page(author ? postRows.filter((p) => `eq.${p.author}` === author) : postRows, request);
    },
    'GET /api/tables/3/records': (request) => page(authorsFor(request), request),
    'GET /api/tables/3/records/2': () => json(200, people[1]),
    'PATCH /api/tables/4/records/3': (request) => json(200, { ...postRows[2], ...(request.body as object) }),
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

describe('label resolution', () => {
  it('uses the chosen label while the table has it, else its first text column, else none', () => {
    expect(labelColumnOf({ table: 'authors', onDelete: 'restrict', label: 'born' }, authors)).toBe('born');
    expect(labelColumnOf({ table: 'authors', onDelete: 'restrict', label: 'gone' }, authors)).toBe('name');
    expect(labelColumnOf({ table: 'authors', onDelete: 'restrict' }, authors)).toBe('name');
    expect(labelColumnOf({ table: 'authors', onDelete: 'restrict', label: 'id' }, authors)).toBe('id');
    expect(labelColumnOf({ table: 'x', onDelete: 'restrict' }, { schema: { n: col('number') } })).toBeNull();
  });

  it('reads each referenced id once', () => {
    expect(referenceIdsOf(postRows, 'author')).toEqual([2]);
    expect(
      referenceIdsOf(
        [
          { id: 1, a: 5 },
          { id: 2, a: 'x' },
          { id: 3, a: 5.5 },
          { id: 4, a: 9 },
        ],
        'a',
      ),
    ).toEqual([5, 9]);
  });

  it('searches a text label with ilike, a number by id too, and nothing it cannot match', () => {
    expect(searchFiltersOf('name', 'text', '  ')).toEqual([]);
    expect(searchFiltersOf('name', 'text', 'Ad*a"')).toEqual([['name', 'ilike.*Ada*']]);
    expect(searchFiltersOf('name', 'text', '12')).toEqual([['or', '(id.eq.12,name.ilike."*12*")']]);
    expect(searchFiltersOf('born', 'number', '12')).toEqual([['id', 'eq.12']]);
    expect(searchFiltersOf('born', 'number', 'Ada')).toBeNull();
  });
});

describe('the grid and the picker', () => {
  it('shows a page of references by label and id, read in one call', async () => {
    const backend = serve();
    renderApp('/tables/4');
    const grid = await screen.findByRole('table', { name: 'Records' });
    await waitFor(() => expect(within(grid).getAllByText('Author 2')).toHaveLength(2));
    expect(within(grid).getAllByText('#2')).toHaveLength(2);
    const labelReads = backend.requests.filter((r) => r.url.pathname === '/api/tables/3/records');
    expect(labelReads).toHaveLength(1);
    expect(labelReads[0]?.url.searchParams.get('id')).toBe('in.(2)');
  });

  it('loads more, then picks a row with the keyboard after a server-side search', async () => {
    const backend = serve();
    const user = userEvent.setup();
    renderApp('/tables/4');
    const grid = await screen.findByRole('table', { name: 'Records' });
    const rows = within(grid).getAllByRole('row');
    const empty = within(rows[3] as HTMLElement).getAllByRole('cell')[3] as HTMLElement;
    await user.dblClick(empty);
    const picker = await screen.findByTestId('reference-picker');
    const box = within(picker).getByRole('combobox', { name: 'Search authors by name or id' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(25));
    expect(within(picker).getByText('25 of 60')).toBeInTheDocument();
    await user.click(within(picker).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(50));

    await user.type(box, 'author 5');
    // Author 5 and Author 50 to 59, found by the server.
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(11));
    const search = backend.requests.filter((r) => r.url.searchParams.get('name') === 'ilike.*author 5*');
    expect(search[0]?.url.searchParams.get('orderBy')).toBe('name');
    await user.keyboard('{ArrowDown}');
    const options = within(picker).getAllByRole('option');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(backend.requests.some((r) => r.method === 'PATCH')).toBe(true));
    const patch = backend.requests.find((r) => r.method === 'PATCH');
    expect(patch?.body).toEqual({ author: Number(options[1]?.textContent?.match(/#(\d+)/)?.[1]) });
  });

  it('offers Clear on a filled nullable reference and Escape leaves it as it was', async () => {
    const backend = serve();
    const user = userEvent.setup();
    renderApp('/tables/4');
    const grid = await screen.findByRole('table', { name: 'Records' });
    const cell = within(within(grid).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell')[3] as HTMLElement;
    await user.dblClick(cell);
    const picker = await screen.findByTestId('reference-picker');
    expect(within(picker).getByRole('button', { name: 'Clear' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('reference-picker')).toBeNull());
    expect(backend.requests.some((r) => r.method === 'PATCH')).toBe(false);
  });
});

describe('the row page', () => {
  it('lists the rows that reference it, per column, linked to their pages', async () => {
    serve();
    renderApp('/tables/3/rows/2');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('authors #2'));
    const group = await screen.findByRole('region', { name: 'posts.author' });
    await waitFor(() => expect(within(group).getByText('2')).toBeInTheDocument());
    const links = within(group).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/tables/4/rows/1', '/tables/4/rows/2']);
    expect(links[0]).toHaveTextContent('First#1');
  });
});
