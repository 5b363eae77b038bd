import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
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
