import type { DatabaseCheck, DatabaseHealth } from '@basalt/shared';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { expectFetchedEvery, pending, serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp, testConfig } from '@/test/render-app';

// Settings › Database: the health card (badge, metrics, polling, Run Health Check) and the database type.

// The lazy route loads first; on a busy machine that takes longer than the default second.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const healthy: DatabaseHealth = {
  connected: true,
  message: 'Database connection is healthy',
  version: 'SQLite 3.50.4',
  metrics: {
    connectionUtilization: 0.25,
    activeConnections: 1,
    maxConnections: 4,
    idleConnections: 3,
    avgQueryTime: 0.4219,
    slowQueries: 2,
  },
  details: {},
  checkedAt: new Date().toISOString(),
};
const checked = (ok: boolean): DatabaseCheck => ({
  ...healthy,
  integrity: {
    ok,
    durationMs: 12.5,
    checks: [
      {
        name: 'integrity_check',
        ok,
        message: ok ? 'ok' : '1 problem',
        problems: ok ? [] : ['row 4 missing from index'],
      },
      { name: 'foreign_key_check', ok: true, message: 'ok', problems: [] },
    ],
  },
});

const badge = () => screen.getByText(/^(Checking|Error|Connected|Disconnected|Unknown)$/);

afterEach(() => vi.useRealTimers());

describe('the database health card', () => {
  it('reads Checking while the first check runs', async () => {
    serveFake({ 'GET /api/health/database': pending });
    renderApp('/settings?tab=database');
    expect(await screen.findByTestId('health-skeleton')).toBeInTheDocument();
    expect(badge()).toHaveTextContent('Checking');
  });

  it('reads Connected and shows the metrics readably', async () => {
    serveFake({ 'GET /api/health/database': () => json(200, healthy) });
    renderApp('/settings?tab=database');
    expect(await screen.findByText('Database connection is healthy')).toBeInTheDocument();
    await waitFor(() => expect(badge()).toHaveTextContent('Connected'));
    expect(screen.getByText(/SQLite 3\.50\.4/)).toBeInTheDocument();
    expect(screen.getByText('25%')).toBeInTheDocument();
    expect(screen.getByText('1 / 4')).toBeInTheDocument();
    expect(screen.getByText('3 idle')).toBeInTheDocument();
    expect(screen.getByText('0.42 ms')).toBeInTheDocument();
    expect(screen.getByText('2')).toBeInTheDocument();
  });

  it('reads Disconnected when the database does not answer', async () => {
    serveFake({
      'GET /api/health/database': () =>
        json(200, { ...healthy, connected: false, version: null, message: 'connect ECONNREFUSED 127.0.0.1:5432' }),
    });
    renderApp('/settings?tab=database');
    expect(await screen.findByText('Database connection issue')).toBeInTheDocument();
    expect(screen.getAllByText('connect ECONNREFUSED 127.0.0.1:5432')).toHaveLength(2);
    await waitFor(() => expect(badge()).toHaveTextContent('Disconnected'));
  });

  it('reads Error when the check itself fails', async () => {
    serveFake({
      'GET /api/health/database': () => json(403, { message: 'Only administrators can check the database' }),
    });
    renderApp('/settings?tab=database');
    expect(await screen.findByText('Error checking database health')).toBeInTheDocument();
    expect(screen.getByText(/: Only administrators can check the database/)).toBeInTheDocument();
    expect(badge()).toHaveTextContent('Error');
  });

  it('checks again every 60 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const backend = serveFake({ 'GET /api/health/database': () => json(200, healthy) });
    renderApp('/settings?tab=database');
    await screen.findByText('Database connection is healthy');
    await expectFetchedEvery(backend, 'GET', '/api/health/database', 60_000);
  });

  it('runs the full diagnostic and shows what the integrity check found', async () => {
    let ok = true;
    const backend = serveFake({
      'GET /api/health/database': () => json(200, healthy),
      'POST /api/health/database/check': () => json(200, checked(ok)),
    });
    const user = userEvent.setup();
    renderApp('/settings?tab=database');
    await screen.findByText('Database connection is healthy');
    await user.click(screen.getByRole('button', { name: 'Run Health Check' }));
    const result = await screen.findByRole('region', { name: 'Integrity check' });
    expect(within(result).getByText(/Integrity check passed/)).toBeInTheDocument();
    expect(backend.find('POST', '/api/health/database/check')[0]?.body).toEqual({ fullDiagnostic: true });

    ok = false;
    await user.click(screen.getByRole('button', { name: 'Run Health Check' }));
    expect(await within(result).findByText(/found problems in 1 of 2 checks/)).toBeInTheDocument();
    expect(within(result).getByText('row 4 missing from index')).toBeInTheDocument();
  });

  it('says when the manual check fails', async () => {
    serveFake({
      'GET /api/health/database': () => json(200, healthy),
      'POST /api/health/database/check': () => json(429, { message: 'Too many health checks' }),
    });
    const user = userEvent.setup();
    renderApp('/settings?tab=database');
    await screen.findByText('Database connection is healthy');
    await user.click(screen.getByRole('button', { name: 'Run Health Check' }));
    expect(await screen.findByText('Error checking database health')).toBeInTheDocument();
    expect(screen.getByText('Too many health checks')).toBeInTheDocument();
    expect(badge()).toHaveTextContent('Error');
    // The card says what failed instead of the older answer beside an Error badge.
    expect(screen.getByRole('alert')).toHaveTextContent('Error checking database health: Too many health checks');
    expect(screen.queryByText('Database connection is healthy')).not.toBeInTheDocument();
    expect(screen.queryByText('25%')).not.toBeInTheDocument();
  });

  it('shows a later automatic check that fails instead of the last good figures, until one answers again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer = () => json(200, healthy);
    serveFake({ 'GET /api/health/database': () => answer() });
    renderApp('/settings?tab=database');
    await screen.findByText('Database connection is healthy');

    answer = () => json(500, { message: 'database is locked' });
    // The next check, then its retries (1, 2 and 4 s).
    await act(() => vi.advanceTimersByTimeAsync(60_000 + 8_000));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error checking database health: database is locked');
    expect(screen.queryByText('Database connection is healthy')).not.toBeInTheDocument();
    expect(screen.queryByText('25%')).not.toBeInTheDocument();
    expect(badge()).toHaveTextContent('Error');

    answer = () => json(200, healthy);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(await screen.findByText('Database connection is healthy')).toBeInTheDocument();
    await waitFor(() => expect(badge()).toHaveTextContent('Connected'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the database engine', () => {
  it.each([
    ['sqlite', 'SQLite', 'PostgreSQL', 'DATABASE_URL=postgres://'],
    ['postgres', 'PostgreSQL', 'SQLite', 'BACKUP_FORMAT=logical'],
  ] as const)(
    'shows %s in use and how to move to the other engine, with no form that does nothing',
    async (databaseType, label, other, step) => {
      serveFake({ 'GET /api/health/database': pending });
      renderApp('/settings?tab=database', { ...testConfig, databaseType });
      expect(await screen.findByRole('region', { name: 'Database engine in use' })).toHaveTextContent(label);
      expect(screen.getByRole('heading', { name: `Moving to ${other}` })).toBeInTheDocument();
      expect(screen.getByText(new RegExp(step.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))).toBeInTheDocument();
      expect(screen.queryByRole('radiogroup', { name: 'Database type' })).toBeNull();
      expect(screen.queryByRole('textbox', { name: 'Port' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    },
  );
});
