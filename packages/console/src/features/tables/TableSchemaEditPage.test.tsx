import type { TableResponse } from '@basalt/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { createFakeBackend, type FakeRoute, json } from '@/test/fake-backend';
import { renderApp } from '@/test/render-app';

// The schema editor against a fake server: the live preview, the server's check, saving and a refusal.

const holder = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('@/lib/supabase', () => ({ getSupabase: () => holder.client }));

const people: TableResponse = {
  id: 3,
  name: 'people',
  description: null,
  schema: {
    id: { type: 'number', required: true, unique: true },
    email: { type: 'text', required: false, unique: false },
    age: { type: 'number', required: false, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const REFUSAL = 'Column "email" cannot be made required: 2 rows have no value.';

function serve(routes: Record<string, FakeRoute>) {
  const backend = createFakeBackend({ 'GET /api/tables/3': () => json(200, people), ...routes });
  vi.stubGlobal('fetch', vi.fn(backend.fetch));
  holder.client = { auth: createFakeAuth(fakeSession()).auth, from: () => null };
  return backend;
}

beforeEach(() => localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true'));
afterEach(() => vi.unstubAllGlobals());

describe('/tables/:id/edit', () => {
  it('previews the change, checks it with the server, saves it and opens the schema', async () => {
    const backend = serve({
      'POST /api/tables/3/schema/preview': () => json(200, { changes: [], refusal: null }),
      'PATCH /api/tables/3': (request) => json(200, { ...people, ...Object(request.body), updatedAt: 'later' }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/tables/3/edit');
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Table' })).toBeInTheDocument();
    await screen.findByRole('textbox', { name: 'Column 3 name' });
    expect(await screen.findByText('No changes yet. Edit the table to see what saving will do.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

    await user.clear(screen.getByRole('textbox', { name: 'Column 3 name' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 3 name' }), 'years');
    await user.click(screen.getByRole('button', { name: 'Remove column 2' }));
    await user.click(screen.getByRole('button', { name: 'Add Column' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 3 name' }), 'nickname');
    const plan = screen.getByRole('list', { name: 'Planned changes' });
    expect(
      within(plan)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Drop column "email" (text) and its data',
      'Rename column "age" to "years"',
      'Add column "nickname" (text)',
    ]);
    expect(await screen.findByText('The existing records allow this change.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Table updated')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=schema'));
    expect(backend.find('PATCH', '/api/tables/3')[0]?.body).toEqual({
      schema: {
        id: { type: 'number', required: true, unique: true },
        years: { type: 'number', required: false, unique: false },
        nickname: { type: 'text', required: false, unique: false },
      },
      renames: { age: 'years' },
    });
  });

  it('turns Save off while the check refuses the draft, says why, and keeps the edits', async () => {
    const backend = serve({
      'POST /api/tables/3/schema/preview': (request) =>
        json(200, {
          changes: [],
          refusal: JSON.stringify(request.body).includes('"required":true')
            ? { message: REFUSAL, column: 'email' }
            : null,
        }),
    });
    const user = userEvent.setup();
    renderApp('/tables/3/edit');
    await user.click(await screen.findByRole('checkbox', { name: 'Column 2 Required' }));
    expect(await screen.findByText('Make "email" required')).toBeInTheDocument();
    expect(await screen.findByTestId('schema-check-refusal')).toHaveTextContent(REFUSAL);
    const save = screen.getByRole('button', { name: 'Save Changes' });
    await waitFor(() => expect(save).toBeDisabled());
    expect(save).toHaveAccessibleDescription(/Save is off until the records allow the change/);
    // The draft is kept: another edit beside it, then the refused part undone, and Save comes back.
    await user.type(screen.getByRole('textbox', { name: 'Column 3 name' }), 's');
    expect(screen.getByRole('checkbox', { name: 'Column 2 Required' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Column 2 Required' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled());
    expect(screen.getByRole('textbox', { name: 'Column 3 name' })).toHaveValue('ages');
    expect(backend.find('PATCH', '/api/tables/3')).toHaveLength(0);
  });

  it('shows the server’s refusal when a save is refused after the check, and keeps the draft', async () => {
    serve({
      'POST /api/tables/3/schema/preview': () => json(200, { changes: [], refusal: null }),
      'PATCH /api/tables/3': () => json(409, { message: REFUSAL, code: 'schema_change_refused' }),
    });
    const user = userEvent.setup();
    renderApp('/tables/3/edit');
    await user.click(await screen.findByRole('checkbox', { name: 'Column 2 Required' }));
    expect(await screen.findByText('The existing records allow this change.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update table')).toBeInTheDocument();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.some((alert) => alert.textContent === REFUSAL)).toBe(true);
    expect(screen.getByRole('checkbox', { name: 'Column 2 Required' })).toBeChecked();
    expect(screen.getByText('Make "email" required')).toBeInTheDocument();
  });

  it('refuses an invalid draft with the shared messages, before any request', async () => {
    const backend = serve({});
    const user = userEvent.setup();
    renderApp('/tables/3/edit');
    await user.click(await screen.findByRole('button', { name: 'Add Column' }));
    await user.type(screen.getByRole('textbox', { name: 'Column 4 name' }), 'Email');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(
      await screen.findByText('Column names must be unique: "Email" is used twice (names ignore case)'),
    ).toBeInTheDocument();
    expect(backend.find('PATCH', '/api/tables/3')).toHaveLength(0);
    expect(backend.find('POST', '/api/tables/3/schema/preview')).toHaveLength(0);
  });
});
