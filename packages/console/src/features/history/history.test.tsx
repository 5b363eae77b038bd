import type { TableResponse } from '@basalt/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { setUpFakeServerSuite } from '@/test/fake-server';
import { textsByRole } from '@/test/queries';
import { renderApp } from '@/test/render-app';
import { historyChange } from './history.fixtures';
import { change, historyRoute, OLD_DAY, products, restored, serve, table, today } from './history-page.fixtures';

// The Database History page routed as in the app, against a fake server (the real supabase-js client reads the
// table list through it).

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

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
