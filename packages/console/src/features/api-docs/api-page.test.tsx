import type { TableResponse } from '@basalt/shared';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type FakeRoute, json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';
import { recordApiDocument } from './openapi.fixtures';

// The Endpoints and Documentation tabs of /api (the API Keys tab is in features/keys).

// Pages load lazily; on a busy machine the first render can take longer than Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const todos: TableResponse = {
  id: 1,
  name: 'todos',
  description: null,
  schema: {
    id: { type: 'number', required: true, unique: true },
    title: { type: 'text', required: true, unique: false },
  },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/** serve answers the API Keys tab's list too, which the page loads whatever the tab. */
const serve = (routes: Record<string, FakeRoute>) =>
  serveFake({
    'GET /api/keys': () => json(200, []),
    'GET /api/openapi.json': () => json(200, recordApiDocument(['todos'])),
    ...routes,
  });

describe('/api Documentation', () => {
  it('explains bearer keys, every status code and the error body, and links to the full reference', async () => {
    serve({});
    renderApp('/api?tab=documentation');
    expect(await screen.findByRole('heading', { name: 'Authentication' })).toBeInTheDocument();
    expect(screen.getByText(/Authorization: Bearer <API key>/)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Status codes' });
    const statuses = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.firstElementChild?.textContent);
    expect(statuses).toEqual(['200', '201', '400', '401', '403', '404', '409', '413', '429', '500']);
    expect(within(table).getByText(/Rate limit exceeded/)).toBeInTheDocument();
    expect(screen.getByTitle('error body').textContent).toContain('"error": {');
    expect(screen.getByRole('link', { name: 'OpenAPI reference' })).toHaveAttribute('href', '/record-api/reference');
    expect(screen.getByRole('link', { name: 'Record API docs' })).toHaveAttribute('href', '/record-api');
  });
});

describe('/api Endpoints', () => {
  it("lists the chosen table's endpoints and links to its Record API docs", async () => {
    serve({ 'GET /rest/v1/tables': () => json(200, [todos]) });
    renderApp('/api?tab=endpoints');
    expect((await screen.findAllByText('/api/table/todos/{id}')).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Record API docs' })).toHaveAttribute('href', '/record-api?table=todos');
  });

  it('shows a load failure with Retry instead of "No tables found"', async () => {
    let calls = 0;
    serve({
      'GET /rest/v1/tables': () => (++calls === 1 ? json(400, { message: 'Something broke' }) : json(200, [todos])),
    });
    const user = userEvent.setup();
    renderApp('/api?tab=endpoints');
    expect(await screen.findByText('Failed to load tables')).toBeInTheDocument();
    expect(screen.queryByText('No tables found')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect((await screen.findAllByText('/api/table/todos/{id}')).length).toBeGreaterThan(0);
  });
});
