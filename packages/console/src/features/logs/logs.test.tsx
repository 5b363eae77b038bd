import type { LogEntry, LogPageEntry } from '@basalt/shared';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, json } from '@/test/fake-backend';
import { expectFetchedEvery, pending, serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { textsByRole } from '@/test/queries';
import { renderApp } from '@/test/render-app';

// Settings › Logs (the filterable viewer) and /logs (the paged table) against a fake server.

// The lazy route loads first; on a busy machine that takes longer than the default second.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const entries: LogEntry[] = [
  {
    id: 1,
    level: 'info',
    message: 'Server started',
    source: 'server',
    path: null,
    context: { port: 8787 },
    timestamp: minutesAgo(30),
  },
  {
    id: 2,
    level: 'error',
    message: 'Query failed',
    source: 'records',
    path: '/api/table/orders',
    context: {},
    timestamp: minutesAgo(20),
  },
  {
    id: 3,
    level: 'warn',
    message: 'Slow request',
    source: 'http',
    path: '/rest/v1/Orders',
    context: { ms: 812 },
    timestamp: minutesAgo(10),
  },
  {
    id: 4,
    level: 'debug',
    message: 'Cache miss',
    source: 'tables',
    path: null,
    context: { table: 'invoices' },
    timestamp: minutesAgo(5),
  },
];

function logsPage(page: number, totalPages: number) {
  const data: LogPageEntry[] = Array.from({ length: 20 }, (_, i) => ({
    id: (page - 1) * 20 + i + 1,
    createdAt: minutesAgo(3 * 60),
    level: i === 0 ? 'error' : i === 1 ? 'warning' : 'info',
    service: 'http',
    message: `Entry ${(page - 1) * 20 + i + 1}`,
  }));
  return {
    data,
    pagination: {
      totalPages,
      totalItems: totalPages * 20,
      currentPage: page,
      hasNext: page < totalPages,
      hasPrevious: page > 1,
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const messages = () =>
  within(screen.getByRole('list', { name: 'Log entries' }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('p')?.textContent);

describe('Settings › Logs', () => {
  it('shows skeletons while loading, then the entries in a 400 px list', async () => {
    let answer: FakeRoute = pending;
    serveFake({ 'GET /api/logs': (r) => answer(r) });
    const view = renderApp('/settings?tab=logs');
    expect(await screen.findAllByTestId('log-skeleton-row')).not.toHaveLength(0);
    view.unmount();
    answer = () => json(200, entries);
    renderApp('/settings?tab=logs');
    await screen.findByText('Server started');
    expect(screen.getByTestId('log-list')).toHaveClass('h-[400px]');
    expect(messages()).toEqual(['Server started', 'Query failed', 'Slow request', 'Cache miss']);
    expect(screen.getByText('Showing 4 of 4 entries')).toBeInTheDocument();
  });

  it('filters by level and by a case-insensitive search over message, source, path and context', async () => {
    serveFake({ 'GET /api/logs': () => json(200, entries) });
    const user = userEvent.setup();
    renderApp('/settings?tab=logs');
    await screen.findByText('Server started');
    const level = screen.getByRole('combobox', { name: 'Level' });
    expect(textsByRole(level, 'option')).toEqual(['All', 'info', 'warn', 'error', 'debug']);
    await user.selectOptions(level, 'error');
    expect(messages()).toEqual(['Query failed']);
    await user.selectOptions(level, 'all');

    const search = screen.getByRole('searchbox', { name: 'Search logs' });
    await user.type(search, 'ORDERS');
    expect(messages()).toEqual(['Query failed', 'Slow request']);
    await user.clear(search);
    await user.type(search, 'invoices');
    expect(messages()).toEqual(['Cache miss']);
    expect(screen.getByText('Showing 1 of 4 entries')).toBeInTheDocument();

    await user.selectOptions(level, 'info');
    expect(screen.getByText('No logs match your filters')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export JSON' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(messages()).toHaveLength(4);
  });

  it('exports the entries shown as JSON named by date', async () => {
    serveFake({ 'GET /api/logs': () => json(200, entries) });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:logs';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const user = userEvent.setup();
    renderApp('/settings?tab=logs');
    await screen.findByText('Server started');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Level' }), 'warn');
    await user.click(screen.getByRole('button', { name: 'Export JSON' }));

    const today = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(downloads).toEqual([
      `basalt-logs-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}.json`,
    ]);
    expect(blobs[0]?.type).toBe('application/json');
    expect(JSON.parse(await (blobs[0] as Blob).text())).toEqual([entries[2]]);
  });

  it('says when loading fails and retries', async () => {
    let fail = true;
    serveFake({
      'GET /api/logs': () => (fail ? json(403, { message: 'Only administrators can read the logs' }) : json(200, [])),
    });
    const user = userEvent.setup();
    renderApp('/settings?tab=logs');
    expect(await screen.findByText('Failed to load logs')).toBeInTheDocument();
    expect(screen.getByText('Only administrators can read the logs')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No logs yet')).toBeInTheDocument();
  });

  it('reloads every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const backend = serveFake({ 'GET /api/logs': () => json(200, entries) });
    renderApp('/settings?tab=logs');
    await screen.findByText('Server started');
    await expectFetchedEvery(backend, 'GET', '/api/logs', 30_000);
  });
});

describe('System Logs page', () => {
  it('lists Timestamp, Level, Service and Message with a relative time, 20 a page', async () => {
    const backend = serveFake({ 'GET /api/logs': () => json(200, logsPage(1, 1)) });
    renderApp('/logs');
    await screen.findByText('Entry 1');
    const table = screen.getByRole('table', { name: 'System logs' });
    expect(textsByRole(table, 'columnheader')).toEqual(['Timestamp', 'Level', 'Service', 'Message']);
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(within(table).getAllByText('3 hours ago')).toHaveLength(20);
    const url = backend.find('GET', '/api/logs')[0]?.url;
    expect(url?.searchParams.get('page')).toBe('1');
    expect(url?.searchParams.get('limit')).toBe('20');
  });

  it('pages with the first, the last and the neighbours of the current page', async () => {
    const backend = serveFake({
      'GET /api/logs': (r) => json(200, logsPage(Number(r.url.searchParams.get('page')), 10)),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/logs');
    await screen.findByText('Entry 1');
    const pager = () => screen.getByRole('navigation', { name: 'Pages' });
    const pages = () => textsByRole(pager(), 'button', { name: /^Page / });
    expect(pages()).toEqual(['1', '2', '10']);
    expect(within(pager()).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(within(pager()).getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(within(pager()).getByRole('button', { name: 'Page 10' }));
    await screen.findByText('Entry 181');
    expect(pages()).toEqual(['1', '9', '10']);
    expect(within(pager()).getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(router.state.location.search).toBe('?page=10');

    await user.click(within(pager()).getByRole('button', { name: 'Previous page' }));
    await screen.findByText('Entry 161');
    await user.click(within(pager()).getByRole('button', { name: 'Page 8' }));
    await screen.findByText('Entry 141');
    await user.click(within(pager()).getByRole('button', { name: 'Page 7' }));
    await screen.findByText('Entry 121');
    expect(pages()).toEqual(['1', '6', '7', '8', '10']);
    expect(within(pager()).getAllByText('…')).toHaveLength(2);
    expect(backend.find('GET', '/api/logs').map((r) => r.url.searchParams.get('page'))).toEqual([
      '1',
      '10',
      '9',
      '8',
      '7',
    ]);
  });

  it('reads a count that stopped at its limit as "more than", with no last page', async () => {
    const page = logsPage(3, 501);
    serveFake({
      'GET /api/logs': () =>
        json(200, { ...page, pagination: { ...page.pagination, totalItems: 10_000, totalItemsCapped: true } }),
    });
    renderApp('/logs?page=3');
    await screen.findByText('Entry 41');
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pager).getByText('More than 10,000 entries')).toBeInTheDocument();
    expect(textsByRole(pager, 'button', { name: /^Page / })).toEqual(['1', '2', '3', '4']);
    expect(within(pager).getAllByText('…')).toHaveLength(1);
    expect(within(pager).getByRole('button', { name: 'Next page' })).toBeEnabled();
  });

  it('shows skeleton rows while loading, an empty state, and an error with Retry', async () => {
    let answer: FakeRoute = pending;
    serveFake({ 'GET /api/logs': (r) => answer(r) });
    const user = userEvent.setup();
    const first = renderApp('/logs');
    expect(await screen.findAllByTestId('logs-skeleton-row')).toHaveLength(8);
    first.unmount();

    // A 4xx is not retried, so the failure shows at once.
    answer = () => json(403, { message: 'Only administrators can read the logs' });
    renderApp('/logs');
    expect(await screen.findByText('Failed to load logs')).toBeInTheDocument();
    expect(screen.getByText('Only administrators can read the logs')).toBeInTheDocument();
    answer = () =>
      json(200, {
        data: [],
        pagination: { totalPages: 0, totalItems: 0, currentPage: 1, hasNext: false, hasPrevious: false },
      });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No logs yet')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
  });
});
