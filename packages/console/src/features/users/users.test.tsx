import type { EndUserSummary } from '@basalt/shared';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';

// The Users page against a fake server: the columns, the server-side search,
// the empty texts, the Add User and Edit dialogs' messages, the delete confirmation and the toasts.

configure({ asyncUtilTimeout: 5000 });
vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const ada: EndUserSummary = {
  id: '8a4c1f6e-3b2d-4c1e-9f1a-2b3c4d5e6f70',
  username: 'ada',
  email: 'ada@example.com',
  createdAt: '2026-03-05T10:00:00.000Z',
  lastSignInAt: null,
  confirmed: true,
  bannedUntil: null,
};

const page = (data: EndUserSummary[], totalItems = data.length) => ({
  data,
  pagination: {
    totalItems,
    totalPages: Math.max(1, Math.ceil(totalItems / 20)),
    currentPage: 1,
    hasNext: false,
    hasPrevious: false,
  },
});

// Typing and the search's pause take longer than the 5 s default on a busy machine.
describe('/users', { timeout: 20_000 }, () => {
  it('lists users with ID, Username, Email, Created At and Actions, and searches on the server', async () => {
    const backend = serveFake({
      'GET /api/users': (request) =>
        json(200, request.url.searchParams.get('search') === 'zz' ? page([]) : page([ada])),
    });
    const user = userEvent.setup();
    renderApp('/users');
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(await within(table).findAllByText('ada@example.com')).not.toHaveLength(0);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', 'Username', 'Email', 'Created At', 'Last sign-in', 'Actions']);
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'zz');
    expect(await screen.findByText('No users matching your search criteria')).toBeInTheDocument();
    const searched = backend.find('GET', '/api/users').map((r) => r.url.searchParams.get('search'));
    expect(searched).toContain('zz');
  });

  it('says "No users available" for an app without users', async () => {
    serveFake({ 'GET /api/users': () => json(200, page([])) });
    renderApp('/users');
    expect(await screen.findByText('No users available')).toBeInTheDocument();
  });

  it('toasts "Failed to fetch users" when the list cannot load', async () => {
    serveFake({ 'GET /api/users': () => json(400, { message: 'Broken' }) });
    renderApp('/users');
    expect(await screen.findAllByText('Failed to fetch users')).not.toHaveLength(0);
  });

  it("checks the Add User dialog with the spec's messages, then creates the user", async () => {
    const backend = serveFake({
      'GET /api/users': () => json(200, page([])),
      'POST /api/users': () => json(201, { ...ada, username: 'grace', email: 'grace@example.com' }),
    });
    const user = userEvent.setup();
    renderApp('/users');
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await user.type(within(dialog).getByLabelText('Username'), 'gr');
    await user.type(within(dialog).getByLabelText('Email'), 'nope');
    await user.type(within(dialog).getByLabelText('Password'), 'short');
    await user.type(within(dialog).getByLabelText('Confirm password'), 'other');
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await within(dialog).findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(within(dialog).getByText("Passwords don't match")).toBeInTheDocument();
    expect(backend.find('POST', '/api/users')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Username'));
    await user.type(within(dialog).getByLabelText('Username'), 'grace');
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'grace@example.com');
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'long enough');
    await user.clear(within(dialog).getByLabelText('Confirm password'));
    await user.type(within(dialog).getByLabelText('Confirm password'), 'long enough');
    await user.click(within(dialog).getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('User created')).toBeInTheDocument();
    expect(backend.find('POST', '/api/users')[0]?.body).toEqual({
      username: 'grace',
      email: 'grace@example.com',
      password: 'long enough',
    });
  });

  it('edits with the Edit dialog and deletes after the confirmation', async () => {
    const backend = serveFake({
      'GET /api/users': () => json(200, page([ada])),
      [`PATCH /api/users/${ada.id}`]: () => json(200, { ...ada, username: 'countess' }),
      [`DELETE /api/users/${ada.id}`]: () => json(200, { success: true }),
    });
    const user = userEvent.setup();
    renderApp('/users');
    await user.click(await screen.findByRole('button', { name: 'Actions for ada' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await user.clear(within(dialog).getByLabelText('Username'));
    await user.type(within(dialog).getByLabelText('Username'), 'ab');
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Username'));
    await user.type(within(dialog).getByLabelText('Username'), 'countess');
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User updated')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Actions for ada' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(
      within(confirm).getByText('Are you sure you want to delete the user "ada"? This action cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted')).toBeInTheDocument();
    await waitFor(() => expect(backend.find('DELETE', `/api/users/${ada.id}`)).toHaveLength(1));
  });

  it('toasts "Failed to delete user" with the server message', async () => {
    serveFake({
      'GET /api/users': () => json(200, page([ada])),
      [`DELETE /api/users/${ada.id}`]: () => json(404, { message: 'User not found' }),
    });
    const user = userEvent.setup();
    renderApp('/users');
    await user.click(await screen.findByRole('button', { name: 'Actions for ada' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user')).toBeInTheDocument();
    expect(screen.getByText('User not found')).toBeInTheDocument();
  });
});
