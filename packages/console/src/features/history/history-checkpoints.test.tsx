import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AuthContext } from '@/features/auth/auth-context';
import { createFakeAuth } from '@/test/fake-auth';
import { json } from '@/test/fake-backend';
import { setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';
import { HistoryPage } from './HistoryPage';
import { checkpoint, products, restored, serve } from './history-page.fixtures';

// Checkpoints and history reached from elsewhere, routed as in the app against a fake server.

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

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

  it('shows what a restore does to the access rules and keeps today’s rules when asked', async () => {
    const nobody = { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody', ownerColumn: null };
    const backend = serve({
      'GET /api/checkpoints/7/restore-preview': () =>
        json(200, {
          tableId: 4,
          changeId: 3,
          access: { current: { ...nobody, select: 'authenticated' }, restored: nobody, changes: true },
        }),
      'POST /api/checkpoints/7/restore': () => json(200, { ...restored, checkpoint }),
    });
    const user = userEvent.setup();
    renderApp('/history/4?tab=checkpoints');
    await user.click(
      within(await screen.findByRole('listitem', { name: 'Before launch' })).getByRole('button', { name: 'Restore' }),
    );
    const dialog = await screen.findByRole('alertdialog');
    const notice = await within(dialog).findByRole('region', { name: 'Access rules change' });
    expect(notice).toHaveTextContent('Today: Anyone signed in to your app can read; only you can add');
    expect(notice).toHaveTextContent('After the restore: Only you can read; only you can add, change or delete rows.');
    await user.click(within(notice).getByRole('checkbox', { name: 'Keep today’s access rules' }));
    await user.click(within(dialog).getByRole('button', { name: 'Restore Checkpoint' }));
    expect(await screen.findByText('Checkpoint restored')).toBeInTheDocument();
    expect(backend.find('POST', '/api/checkpoints/7/restore')[0]?.body).toEqual({ keepAccess: true });
  });

  it('says the rules stay when the restore does not change them, and sends no option', async () => {
    const rules = { select: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody', ownerColumn: null };
    const backend = serve({
      'GET /api/checkpoints/7/restore-preview': () =>
        json(200, { tableId: 4, changeId: 3, access: { current: rules, restored: rules, changes: false } }),
      'POST /api/checkpoints/7/restore': () => json(200, { ...restored, checkpoint }),
    });
    const user = userEvent.setup();
    renderApp('/history/4?tab=checkpoints');
    await user.click(
      within(await screen.findByRole('listitem', { name: 'Before launch' })).getByRole('button', { name: 'Restore' }),
    );
    const dialog = await screen.findByRole('alertdialog');
    expect(await within(dialog).findByText('The access rules stay as they are.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Restore Checkpoint' }));
    expect(await screen.findByText('Checkpoint restored')).toBeInTheDocument();
    expect(backend.find('POST', '/api/checkpoints/7/restore')[0]?.body).toBeUndefined();
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
