import type { Checkpoint, HistoryChange, TableResponse } from '@basalt/shared';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AuthContext } from '@/features/auth/auth-context';
import { createFakeAuth } from '@/test/fake-auth';
import { type FakeRequest, type FakeRoute, json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { textsByRole } from '@/test/queries';
import { renderApp } from '@/test/render-app';
import { HistoryPage } from './HistoryPage';
import { historyChange } from './history.fixtures';

// The Database History page routed as in the app, against a fake server (the real supabase-js client reads the
// table list through it).

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const table = (id: number, name: string): TableResponse => ({
  id,
  name,
  description: null,
  schema: {
    id: { type: 'number', required: true, unique: true },
    title: { type: 'text', required: false, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const products = table(4, 'products');
const orders = table(5, 'orders');

// Times safely inside today and yesterday, whenever the test runs.
const today = (second: number) => {
  const date = new Date();
  date.setHours(0, 0, second, 0);
  return date.toISOString();
};
const yesterday = () => {
  const date = new Date();
  date.setDate(date.getDate() - 1);
  date.setHours(12, 0, 0, 0);
  return date.toISOString();
};
const OLD_DAY = new Date(2026, 0, 15, 9, 30).toISOString();

const change = (id: number, timestamp: string, overrides: Partial<HistoryChange> = {}): HistoryChange =>
  historyChange({
    id,
    timestamp,
    previousState: { id: 1, title: `Title ${id - 1}` },
    newState: { id: 1, title: `Title ${id}` },
    revertOf: null,
    ...overrides,
  });

const HISTORY: HistoryChange[] = [
  change(1, OLD_DAY, {
    changeType: 'SCHEMA_CREATE',
    recordId: null,
    previousState: null,
    newState: { name: 'products', description: null, schema: products.schema },
  }),
  change(2, OLD_DAY, { changeType: 'RECORD_CREATE', previousState: null, newState: { id: 1, title: 'Widget' } }),
  change(3, yesterday(), { previousState: { id: 1, title: 'Widget' }, newState: { id: 1, title: 'Gadget' } }),
  change(4, today(1), { previousState: { id: 1, title: 'Gadget' }, newState: { id: 1, title: 'Gizmo' } }),
  change(5, today(2), {
    changeType: 'RECORD_DELETE',
    previousState: { id: 1, title: 'Gizmo' },
    newState: null,
    userId: 'end-user-9',
    appUser: { id: 'end-user-9', name: 'ada@example.com' },
  }),
];

const checkpoint: Checkpoint = {
  id: 7,
  tableId: 4,
  name: 'Before launch',
  description: 'All prices checked',
  changeId: 3,
  createdBy: 'user-1',
  createdAt: new Date(Date.now() - 3600_000).toISOString(),
};

/** historyRoute pages a list of changes newest first, as GET /api/history does (by `page`, or by `before`). */
function historyRoute(changes: HistoryChange[]): FakeRoute {
  return ({ url }: FakeRequest) => {
    const before = url.searchParams.get('before');
    const page = before === null ? Number(url.searchParams.get('page') ?? 1) : null;
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const ofTable = changes
      .filter((c) => String(c.tableId) === url.searchParams.get('tableId'))
      .sort((a, b) => b.id - a.id);
    const older = before === null ? ofTable : ofTable.filter((c) => c.id < Number(before));
    const start = page === null ? 0 : (page - 1) * limit;
    const data = older.slice(start, start + limit);
    const hasNext = older.length > start + limit;
    return json(200, {
      data,
      pagination: {
        totalItems: ofTable.length,
        totalPages: Math.max(1, Math.ceil(ofTable.length / limit)),
        currentPage: page,
        hasNext,
        hasPrevious: page === null || page > 1,
        nextBefore: hasNext ? (data.at(-1)?.id ?? null) : null,
      },
    });
  };
}

/** serve answers with the two tables, HISTORY and products' checkpoint unless a test says otherwise. */
function serve(routes: Record<string, FakeRoute>) {
  return serveFake({
    'GET /rest/v1/tables': () => json(200, [products, orders]),
    'GET /api/history': historyRoute(HISTORY),
    'GET /api/checkpoints': ({ url }) => json(200, url.searchParams.get('tableId') === '4' ? [checkpoint] : []),
    ...routes,
  });
}

const restored = {
  success: true,
  message: 'Restored',
  tableId: 4,
  changeId: 3,
  reverted: 2,
  undoChangeId: 5,
  table: products,
};

describe('/history', () => {
  it('opens the first table, with the counts, View Table Data and the timeline grouped by day', async () => {
    serve({});
    renderApp('/history');
    expect(await screen.findByRole('heading', { level: 1, name: 'Database History' })).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Table' })).toHaveValue('4');
    expect(await screen.findByText('5 changes')).toBeInTheDocument();
    expect(await screen.findByText('1 checkpoint')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Table Data' })).toHaveAttribute('href', '/tables/4');
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    const days = textsByRole(timeline, 'heading', { level: 4 });
    expect(days).toEqual([
      'Today',
      'Yesterday',
      new Date(OLD_DAY).toLocaleDateString(undefined, {
        weekday: 'long',
        year: 'numeric',
        month: 'long',
        day: 'numeric',
      }),
    ]);
    const order = within(timeline)
      .getAllByRole('listitem', { name: /^Change \d$/ })
      .map((li) => li.getAttribute('aria-label'));
    expect(order).toEqual(['Change 5', 'Change 4', 'Change 3', 'Change 2', 'Change 1']);
    // The checkpoint marks the change it saved.
    expect(within(screen.getByRole('listitem', { name: 'Change 3' })).getByText('Before launch')).toBeInTheDocument();
    expect(screen.getByText('Showing 5 of 5 changes, newest first')).toBeInTheDocument();
  });

  it('shows each change as a readable diff', async () => {
    serve({});
    renderApp('/history/4');
    const update = await screen.findByRole('listitem', { name: 'Change 4' });
    expect(within(update).getByText('Record updated')).toBeInTheDocument();
    const fields = within(update).getByRole('list', { name: 'Field changes' });
    expect(within(fields).getByText('title')).toBeInTheDocument();
    expect(within(fields).getByText('Gadget')).toHaveClass('line-through');
    expect(within(fields).getByLabelText('changed to')).toBeInTheDocument();
    expect(within(fields).getByText('Gizmo')).toBeInTheDocument();
    const created = screen.getByRole('listitem', { name: 'Change 1' });
    const schema = within(created).getByRole('list', { name: 'Schema changes' });
    expect(within(schema).getByText('Created table "products"')).toBeInTheDocument();
    expect(within(schema).getByText('Added column "title" (text)')).toBeInTheDocument();
  });

  it('shows a date column as the records grid does, by its day', async () => {
    const events: TableResponse = {
      ...table(6, 'events'),
      schema: { ...products.schema, starts: { type: 'date', required: false, unique: false } },
    };
    const moved = historyChange({
      id: 9,
      tableId: 6,
      tableName: 'events',
      timestamp: today(1),
      previousState: { id: 1, title: 'Launch', starts: '2026-03-01T00:00:00.000Z' },
      newState: { id: 1, title: 'Launch', starts: '2026-04-15T00:00:00.000Z' },
    });
    serve({
      'GET /rest/v1/tables': () => json(200, [events]),
      'GET /api/history': historyRoute([moved]),
      'GET /api/checkpoints': () => json(200, []),
    });
    renderApp('/history/6');
    const fields = within(await screen.findByRole('listitem', { name: 'Change 9' })).getByRole('list', {
      name: 'Field changes',
    });
    expect(within(fields).getByText('2026-03-01')).toHaveClass('line-through');
    expect(within(fields).getByText('2026-04-15')).toBeInTheDocument();
    expect(fields).not.toHaveTextContent('T00:00:00');
  });

  it('selects a version and lists the later changes, oldest first; Restore asks first', async () => {
    const backend = serve({ 'POST /api/history/3/restore': () => json(200, restored) });
    const user = userEvent.setup();
    renderApp('/history/4');
    const panel = await screen.findByRole('region', { name: 'Changes That Will Be Reverted' });
    expect(within(panel).getByText('No version selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Select version 3:/ }));
    expect(screen.getByRole('button', { name: /^Select version 3:/ })).toHaveAttribute('aria-pressed', 'true');
    const later = within(panel).getByRole('list', { name: 'Changes that will be reverted' });
    expect(
      within(later)
        .getAllByText(/^#\d$/)
        .map((n) => n.textContent),
    ).toEqual(['#4', '#5']);
    expect(within(panel).getByText('Restoring version #3 reverts 2 changes, oldest first.')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore this version?' });
    expect(within(dialog).getByText(/2 later changes will be reverted/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(backend.find('POST', '/api/history/3/restore')).toHaveLength(0);

    const historyReads = backend.find('GET', '/api/history').length;
    const tableReads = backend.find('GET', '/rest/v1/tables').length;
    await user.click(within(panel).getByRole('button', { name: 'Restore' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Version restored')).toBeInTheDocument();
    expect(
      screen.getByText('The table is back to the selected version; 2 later changes reverted.'),
    ).toBeInTheDocument();
    expect(backend.find('POST', '/api/history/3/restore')).toHaveLength(1);
    // Everything that shows the table is read again.
    await waitFor(() => expect(backend.find('GET', '/api/history').length).toBeGreaterThan(historyReads));
    await waitFor(() => expect(backend.find('GET', '/rest/v1/tables').length).toBeGreaterThan(tableReads));
  });

  it('reverts one change, and shows a refusal in the error toast', async () => {
    const reverted = {
      success: true,
      message: 'Reverted',
      revertedChangeId: 4,
      change: change(6, today(3)),
      table: products,
    };
    const backend = serve({
      'POST /api/history/4/revert': () => json(200, reverted),
      'POST /api/history/5/revert': () => json(409, { message: 'Record 1 was changed again after this change' }),
    });
    const user = userEvent.setup();
    renderApp('/history/4');
    await user.click(await screen.findByRole('button', { name: 'Revert change 4' }));
    expect(await screen.findByText('Change reverted')).toBeInTheDocument();
    expect(backend.find('POST', '/api/history/4/revert')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Revert change 5' }));
    expect(await screen.findByText('Error reverting change')).toBeInTheDocument();
    expect(screen.getByText('Record 1 was changed again after this change')).toBeInTheDocument();
    expect(backend.find('POST', '/api/history/5/revert')).toHaveLength(1);
  });

  // Sixty changes with their diffs take a while to render in happy-dom on a busy machine.
  it('pages a long history with Load more', async () => {
    const long = Array.from({ length: 60 }, (_, i) => change(i + 1, today(i)));
    serve({ 'GET /api/history': historyRoute(long) });
    const user = userEvent.setup();
    renderApp('/history/4');
    expect(await screen.findByText('Showing 50 of 60 changes, newest first')).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Change 1' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Showing 60 of 60 changes, newest first')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Change 1' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  }, 20_000);

  it('switches tables with the selector', async () => {
    serve({});
    const user = userEvent.setup();
    const { router } = renderApp('/history/4');
    await screen.findByText('5 changes');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Table' }), 'orders');
    await waitFor(() => expect(router.state.location.pathname).toBe('/history/5'));
    expect(await screen.findByText('No history yet')).toBeInTheDocument();
    expect(screen.getByText('0 changes')).toBeInTheDocument();
    expect(screen.getByText('0 checkpoints')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Table Data' })).toHaveAttribute('href', '/tables/5');
  });

  it('says No Table Selected when there are no tables, with a link to create one', async () => {
    serve({ 'GET /rest/v1/tables': () => json(200, []) });
    renderApp('/history');
    expect(await screen.findByText('No Table Selected')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Your First Table' })).toHaveAttribute('href', '/tables/create');
    expect(screen.queryByRole('link', { name: 'View Table Data' })).not.toBeInTheDocument();
  });

  it('lists the changes in the Table View, with a pager', async () => {
    serve({});
    const user = userEvent.setup();
    const { router } = renderApp('/history/4');
    await user.click(await screen.findByRole('tab', { name: 'Table View' }));
    expect(router.state.location.search).toBe('?tab=table');
    const rows = within(await screen.findByRole('table', { name: 'Changes' })).getAllByRole('row');
    expect(rows).toHaveLength(6);
    expect(within(rows[1] as HTMLElement).getByText('Record deleted')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('by ada@example.com (app user)')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('Changed title')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).queryByText(/app user/)).not.toBeInTheDocument();
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('steps through a long history in the Table View by the server’s cursors', async () => {
    const long = Array.from({ length: 25 }, (_, i) => change(i + 1, today(i)));
    const backend = serve({ 'GET /api/history': historyRoute(long) });
    const user = userEvent.setup();
    renderApp('/history/4?tab=table');
    const changes = await screen.findByRole('table', { name: 'Changes' });
    await waitFor(() => expect(within(changes).getAllByText(/^#\d+$/)[0]).toHaveTextContent('#25'));
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    await waitFor(() => expect(within(changes).getAllByText(/^#\d+$/)[0]).toHaveTextContent('#15'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 3 of 3')).toBeInTheDocument();
    await waitFor(() => expect(within(changes).getAllByText(/^#\d+$/)).toHaveLength(5));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    const urls = backend.find('GET', '/api/history').map((request) => request.url.search);
    expect(urls).toContain('?tableId=4&limit=10&before=16');
    expect(urls).toContain('?tableId=4&limit=10&before=6');
    expect(urls.some((search) => search.includes('page='))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
  }, 20_000);
});

describe('checkpoints', () => {
  it('creates a checkpoint: the button waits for a name that is not blank', async () => {
    const created = { ...checkpoint, id: 8, name: 'Before import', description: null, changeId: 5 };
    const backend = serve({ 'POST /api/checkpoints': () => json(201, created) });
    const user = userEvent.setup();
    renderApp('/history/4?tab=checkpoints');
    const create = await screen.findByRole('button', { name: 'Create Checkpoint' });
    expect(create).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), '   ');
    expect(create).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Before import ');
    expect(create).toBeEnabled();
    await user.click(create);
    expect(await screen.findByText('Checkpoint created')).toBeInTheDocument();
    expect(backend.find('POST', '/api/checkpoints')[0]?.body).toEqual({
      tableId: 4,
      name: 'Before import',
      description: null,
    });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue(''));
  });

  it('shows the server message when creating fails', async () => {
    serve({ 'POST /api/checkpoints': () => json(404, { message: 'Table not found' }) });
    const user = userEvent.setup();
    renderApp('/history/4?tab=checkpoints');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Nightly');
    await user.type(screen.getByRole('textbox', { name: 'Description (optional)' }), 'Before the batch job');
    await user.click(screen.getByRole('button', { name: 'Create Checkpoint' }));
    expect(await screen.findByText('Error creating checkpoint')).toBeInTheDocument();
    expect(screen.getByText('Table not found')).toBeInTheDocument();
  });

  it('lists checkpoints and restores one after the confirmation', async () => {
    const backend = serve({
      'POST /api/checkpoints/7/restore': () => json(200, { ...restored, checkpoint }),
    });
    const user = userEvent.setup();
    renderApp('/history/4?tab=checkpoints');
    const row = await screen.findByRole('listitem', { name: 'Before launch' });
    expect(within(row).getByText('All prices checked')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Restore' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore checkpoint "Before launch"?' });
    expect(
      within(dialog).getByText(
        'The table returns to the state saved in this checkpoint. Changes made after it will be lost.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Restore Checkpoint' }));
    expect(await screen.findByText('Checkpoint restored')).toBeInTheDocument();
    expect(screen.getByText('The table is back to "Before launch".')).toBeInTheDocument();
    expect(backend.find('POST', '/api/checkpoints/7/restore')).toHaveLength(1);
  });

  it('shows "Error restoring checkpoint" with the conflict message', async () => {
    serve({
      'POST /api/checkpoints/7/restore': () => json(409, { message: 'Column "title" cannot be made required' }),
    });
    const user = userEvent.setup();
    renderApp('/history/4?tab=checkpoints');
    await user.click(
      within(await screen.findByRole('listitem', { name: 'Before launch' })).getByRole('button', { name: 'Restore' }),
    );
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Restore Checkpoint' }),
    );
    expect(await screen.findByText('Error restoring checkpoint')).toBeInTheDocument();
    expect(screen.getByText('Column "title" cannot be made required')).toBeInTheDocument();
  });

  it('says when a table has no checkpoints', async () => {
    serve({});
    renderApp('/history/5?tab=checkpoints');
    expect(await screen.findByText('No checkpoints yet')).toBeInTheDocument();
  });
});

describe('elsewhere', () => {
  it('renders nothing without a signed-in user', () => {
    const { container } = render(
      <AuthContext.Provider
        value={{ client: createFakeAuth().auth, session: null, user: null, isLoading: false, needsMfa: false }}
      >
        <HistoryPage />
      </AuthContext.Provider>,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the same timeline in the table page History tab', async () => {
    serve({ 'GET /api/tables/4': () => json(200, products) });
    renderApp('/tables/4?tab=history');
    expect(await screen.findByRole('region', { name: 'Timeline' })).toBeInTheDocument();
    expect(await screen.findByRole('listitem', { name: 'Change 5' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Changes That Will Be Reverted' })).toBeInTheDocument();
  });
});
