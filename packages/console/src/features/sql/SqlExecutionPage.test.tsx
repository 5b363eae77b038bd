import type { DatabaseConnection } from '@basalt/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';

// Direct SQL is a form like the others: Execute can be pressed, and what is missing is said in the spec's words.

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const projectId = '11111111-1111-4111-8111-111111111111';
const connection: DatabaseConnection = {
  id: 7,
  projectId,
  userId: 'u1',
  name: 'warehouse',
  provider: 'CUSTOM',
  engine: 'POSTGRESQL',
  connectionString: 'postgres://app:****@db.example.com:5432/app',
  connectionDetails: null,
  isActive: true,
  lastConnected: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function serveSql(connections: DatabaseConnection[]) {
  return serveFake({
    'GET /api/projects': () => json(200, [{ id: projectId, name: 'Apollo' }]),
    [`GET /api/projects/${projectId}/files`]: () => json(200, []),
    [`GET /api/projects/${projectId}/database-connections`]: () => json(200, connections),
    [`GET /api/projects/${projectId}/query-history`]: () => json(200, []),
  });
}

async function openDirectSql() {
  const user = userEvent.setup();
  renderApp('/sql-execution');
  await user.click(await screen.findByRole('tab', { name: 'Direct SQL' }));
  return user;
}

describe('Direct SQL', () => {
  it('lets Execute be pressed without SQL or a connection and says what is missing', async () => {
    const backend = serveSql([]);
    const user = await openDirectSql();
    const execute = screen.getByRole('button', { name: 'Execute SQL' });
    expect(execute).toBeEnabled();
    await user.click(execute);
    expect(await screen.findByText('SQL query is required')).toBeInTheDocument();
    expect(screen.getByText('Database connection is required')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Database connection' })).toHaveAttribute('aria-invalid', 'true');
    expect(backend.find('POST', `/api/projects/${projectId}/execute-direct-sql`)).toHaveLength(0);
  });

  it('asks only for the SQL once a connection is chosen', async () => {
    serveSql([connection]);
    const user = await openDirectSql();
    const select = screen.getByRole('combobox', { name: 'Database connection' });
    await waitFor(() => expect(within(select).getByRole('option', { name: /warehouse/ })).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Execute SQL' }));
    expect(await screen.findByText('SQL query is required')).toBeInTheDocument();
    expect(screen.queryByText('Database connection is required')).not.toBeInTheDocument();
  });
});
