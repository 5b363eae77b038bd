import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { createQueryClient } from '@/lib/query-client';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, json } from '@/test/fake-backend';
import { AddConnectionDialog } from './AddConnectionDialog';

// The add-connection dialog says what the server refused, in its words (the plan's cap of connections).

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

afterEach(() => vi.unstubAllGlobals());

const QUOTA_MESSAGE =
  'Your Free plan allows 1 database connection and you have registered 1; upgrade your plan or remove a connection to add another';

describe('AddConnectionDialog', () => {
  it('shows the server’s message when the plan allows no more connections, and stays open', async () => {
    const backend = createFakeBackend({
      'POST /api/projects/p1/database-connections': () =>
        json(403, { code: 'connection_quota_exceeded', message: QUOTA_MESSAGE }),
    });
    vi.stubGlobal('fetch', vi.fn(backend.fetch));
    holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
    const onCreated = vi.fn();
    const onOpenChange = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <AddConnectionDialog projectId="p1" open onOpenChange={onOpenChange} onCreated={onCreated} />
        <Toaster />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Second');
    const connection = screen.getByLabelText('Connection string');
    // The string carries the password: masked while typed.
    expect(connection).toHaveAttribute('type', 'password');
    expect(screen.queryByRole('option', { name: 'Cursor' })).toBeNull();
    expect(screen.getByRole('option', { name: 'Supabase' })).toBeInTheDocument();
    await user.type(connection, 'postgres://app:pw@db.example.com:5432/app');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    expect(await screen.findByText(QUOTA_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('Failed to add connection')).toBeInTheDocument();
    await waitFor(() => expect(backend.find('POST', '/api/projects/p1/database-connections')).toHaveLength(1));
    expect(onCreated).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });
});
