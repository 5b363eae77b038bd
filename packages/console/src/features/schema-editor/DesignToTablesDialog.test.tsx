import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardKeys } from '@/features/dashboard/dashboard.keys';
import { projectKeys } from '@/features/projects/projects.keys';
import { tableKeys } from '@/features/tables/tables.keys';
import { createFakeBackend, json } from '@/test/fake-backend';
import { DesignToTablesDialog } from './DesignToTablesDialog';

// "Create tables from this design" creates tables the Tables page, the docs pages and the dashboard show: once
// it is done, each of their cached queries is stale.

afterEach(() => vi.unstubAllGlobals());

const projectId = '11111111-1111-4111-8111-111111111111';
const plan = {
  ready: true,
  steps: [
    { elementId: 'a', name: 'orders', action: 'create', tableId: null, changes: [], refusals: [] },
    { elementId: 'b', name: 'notes', action: 'update', tableId: 9, changes: ['Add column body'], refusals: [] },
  ],
};

describe('Create tables from this design', () => {
  it('refreshes the table lists, the changed tables, the project’s tables and the dashboard', async () => {
    const backend = createFakeBackend({
      [`POST /api/projects/${projectId}/schema/plan`]: () => json(200, plan),
      [`POST /api/projects/${projectId}/schema/apply`]: () => json(200, plan),
    });
    vi.stubGlobal('fetch', vi.fn(backend.fetch));
    const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
    const cached = [
      tableKeys.list,
      tableKeys.apiList,
      tableKeys.detail(9),
      projectKeys.tables(projectId),
      dashboardKeys.stats,
      dashboardKeys.activity(1, 10),
    ];
    for (const key of cached) client.setQueryData(key, []);
    client.setQueryData(tableKeys.detail(10), {});
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={client}>
        <DesignToTablesDialog projectId={projectId} disabled={false} />
      </QueryClientProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Create tables from this design' }));
    await user.click(await screen.findByRole('button', { name: 'Create tables' }));
    await waitFor(() => expect(backend.find('POST', `/api/projects/${projectId}/schema/apply`)).toHaveLength(1));
    await waitFor(() => expect(cached.filter((key) => !client.getQueryState(key)?.isInvalidated)).toEqual([]));
    expect(client.getQueryState(tableKeys.detail(10))?.isInvalidated).toBe(false);
  });
});

describe('Import existing tables', () => {
  const importUrl = `/api/projects/${projectId}/schema/import`;
  const open = async (candidates: unknown) => {
    const backend = createFakeBackend({
      [`GET ${importUrl}`]: () => json(200, candidates),
      [`POST ${importUrl}`]: () => json(200, { imported: 2, layout: { elements: [], version: 2 } }),
    });
    vi.stubGlobal('fetch', vi.fn(backend.fetch));
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <DesignToTablesDialog projectId={projectId} disabled={false} />
      </QueryClientProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Import existing tables' }));
    return { backend, user, dialog: await screen.findByRole('dialog', { name: 'Import existing tables' }) };
  };

  it('offers the person’s own tables, checked, and links and draws the chosen ones', async () => {
    const { backend, user, dialog } = await open({
      linked: [{ id: 3, name: 'invoices' }],
      own: [
        { id: 1, name: 'customers' },
        { id: 2, name: 'orders' },
      ],
    });
    const own = await within(dialog).findByRole('region', { name: 'Your tables' });
    expect(within(dialog).getByRole('region', { name: 'Linked to this project' })).toHaveTextContent('invoices');
    expect(within(own).getByRole('checkbox', { name: 'customers' })).toBeChecked();
    await user.click(within(own).getByRole('checkbox', { name: 'orders' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import 2 tables' }));
    await waitFor(() => expect(backend.find('POST', importUrl)[0]?.body).toEqual({ tableIds: [1] }));
  });

  it('says why there is nothing to import, and offers no Import', async () => {
    const { dialog } = await open({ linked: [], own: [] });
    expect(await within(dialog).findByText(/Nothing to import: every table you have is already/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Import 0 tables' })).toBeDisabled();
  });
});
