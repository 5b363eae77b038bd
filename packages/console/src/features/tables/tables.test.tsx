import type { TableResponse } from '@basalt/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { pending, serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';

// The tables pages routed as in the app, against a fake server that the real supabase-js client talks to.

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const products: TableResponse = {
  id: 4,
  name: 'products',
  description: 'Everything we sell',
  schema: {
    id: { type: 'number', required: true, unique: true },
    title: { type: 'text', required: true, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('/tables', () => {
  it('shows five skeleton rows while the tables load', async () => {
    serveFake({ 'GET /rest/v1/tables': pending });
    renderApp('/tables');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tables' })).toBeInTheDocument();
    expect(screen.getByText('Create and manage your database tables and their records.')).toBeInTheDocument();
    expect(await screen.findAllByTestId('table-skeleton-row')).toHaveLength(5);
  });

  it('says when there are no tables and links to the create form', async () => {
    serveFake({ 'GET /rest/v1/tables': () => json(200, []) });
    renderApp('/tables');
    expect(await screen.findByText('No tables found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first table' })).toHaveAttribute('href', '/tables/new');
    expect(screen.getByRole('link', { name: 'New Table' })).toHaveAttribute('href', '/tables/new');
  });

  it('shows a load failure with Retry, which loads again', async () => {
    let calls = 0;
    serveFake({
      'GET /rest/v1/tables': () => (++calls === 1 ? json(400, { message: 'Something broke' }) : json(200, [products])),
    });
    const user = userEvent.setup();
    renderApp('/tables');
    expect(await screen.findByText('Failed to load tables')).toBeInTheDocument();
    expect(screen.getByText('Something broke')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'products' })).toBeInTheDocument();
  });

  it('lists tables with a dash for no description; a row opens its table', async () => {
    serveFake({
      'GET /rest/v1/tables': () => json(200, [products, { ...products, id: 5, name: 'orders', description: null }]),
      'GET /api/tables/5': () => json(200, { ...products, id: 5, name: 'orders' }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/tables');
    const row = (await screen.findByRole('link', { name: 'orders' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('—')).toBeInTheDocument();
    await user.click(within(row).getAllByRole('cell')[2] as HTMLElement);
    await waitFor(() => expect(router.state.location.pathname).toBe('/tables/5'));
  });

  it('deletes a table after the confirmation, and not on Cancel', async () => {
    let tables = [products];
    const backend = serveFake({
      'GET /rest/v1/tables': () => json(200, tables),
      'DELETE /rest/v1/tables': () => {
        tables = [];
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderApp('/tables');
    await user.click(await screen.findByRole('button', { name: 'Actions for products' }));
    expect(screen.getByRole('menuitem', { name: 'View Data' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Edit Schema' })).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Are you sure?' });
    expect(
      within(dialog).getByText(
        'The table and all its records are deleted. Database History keeps them: revert the deletion there to bring the table back.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(backend.find('DELETE', '/rest/v1/tables')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Actions for products' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Table deleted')).toBeInTheDocument();
    expect(screen.getByText('The table has been deleted successfully.')).toBeInTheDocument();
    const [deletion] = backend.find('DELETE', '/rest/v1/tables');
    expect(deletion?.url.searchParams.get('id')).toBe('eq.4');
    expect(await screen.findByText('No tables found')).toBeInTheDocument();
  });

  it('shows "Failed to delete table" with the server message', async () => {
    serveFake({
      'GET /rest/v1/tables': () => json(200, [products]),
      'DELETE /rest/v1/tables': () => json(404, { code: 'PGRST116', message: 'Table not found' }),
    });
    const user = userEvent.setup();
    renderApp('/tables');
    await user.click(await screen.findByRole('button', { name: 'Actions for products' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete table')).toBeInTheDocument();
    expect(screen.getByText('Table not found')).toBeInTheDocument();
  });
});

describe('/tables/new', () => {
  it('creates the table, says so with the spec’s toast and on the list it returns to', async () => {
    const backend = serveFake({
      'GET /rest/v1/tables': () => json(200, []),
      // .single() asks for one object (Accept: application/vnd.pgrst.object+json), as the server answers it.
      'POST /rest/v1/tables': (request) => json(201, { ...products, ...Object(request.body) }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/tables/new');
    const dialog = await screen.findByRole('dialog', { name: 'Create New Table' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 'products');
    await user.type(within(dialog).getByRole('textbox', { name: 'Column 2 name' }), 'title');
    await user.click(within(dialog).getByRole('button', { name: 'Create Table' }));
    expect(await screen.findByText('Table created')).toBeInTheDocument();
    expect(screen.getByText('Your new table has been created successfully.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/tables'));
    const notice = await screen.findByRole('status', { name: 'Table created successfully' });
    expect(notice).toHaveTextContent('"products" is in your tables, ready for its first records.');
    await user.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Table created successfully')).not.toBeInTheDocument();
    expect(backend.find('POST', '/rest/v1/tables')[0]?.body).toEqual({
      name: 'products',
      description: null,
      schema: {
        id: { type: 'number', required: true, unique: true },
        title: { type: 'text', required: false, unique: false },
      },
    });
  });

  it('shows "Failed to create table" with the server message and stays open', async () => {
    serveFake({
      'GET /rest/v1/tables': () => json(200, [products]),
      'POST /rest/v1/tables': () => json(409, { code: '23505', message: 'A table named "products" already exists' }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/tables/create');
    const dialog = await screen.findByRole('dialog', { name: 'Create New Table' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Table name' }), 'products');
    await user.type(within(dialog).getByRole('textbox', { name: 'Column 2 name' }), 'title');
    await user.click(within(dialog).getByRole('button', { name: 'Create Table' }));
    expect(await screen.findByText('Failed to create table')).toBeInTheDocument();
    expect(screen.getByText('A table named "products" already exists')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/tables/create');
  });

  it('closes to /tables', async () => {
    serveFake({ 'GET /rest/v1/tables': () => json(200, []) });
    const user = userEvent.setup();
    const { router } = renderApp('/tables/new');
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tables'));
  });
});
