import type { LogPageEntry } from '@basalt/shared';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';

// /logs's search and level filter (issue 35: Settings › Logs had both, /logs neither): the server filters the
// whole log, a page at a time; the filters live in the address and a new one starts again at page 1.

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });
vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

function answer(url: URL) {
  const search = url.searchParams.get('search') ?? '';
  const level = url.searchParams.get('level');
  const page = Number(url.searchParams.get('page'));
  const data: LogPageEntry[] =
    search === 'nothing'
      ? []
      : [
          {
            id: page,
            createdAt: new Date().toISOString(),
            level: level === 'error' ? 'error' : 'info',
            service: 'http',
            message: `Page ${page} ${level ?? 'all'} "${search}"`,
          },
        ];
  const totalPages = data.length === 0 ? 0 : 3;
  return json(200, {
    data,
    pagination: {
      totalPages,
      totalItems: totalPages * 20,
      currentPage: page,
      hasNext: page < 3,
      hasPrevious: page > 1,
    },
  });
}

describe('System Logs filters', () => {
  it('asks the server for the level and the search, from page 1, and keeps them in the address', async () => {
    const backend = serveFake({ 'GET /api/logs': (r) => answer(r.url) });
    const user = userEvent.setup();
    const { router } = renderApp('/logs?page=2');
    await screen.findByText('Page 2 all ""');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Level' }), 'error');
    await screen.findByText('Page 1 error ""');
    expect(router.state.location.search).toBe('?level=error');
    await user.type(screen.getByRole('searchbox', { name: 'Search logs' }), 'timeout');
    await screen.findByText('Page 1 error "timeout"');
    expect(router.state.location.search).toBe('?level=error&q=timeout');
    // One request for the whole word, once the box was still: not one a key.
    const searches = backend.find('GET', '/api/logs').map((r) => r.url.searchParams.get('search'));
    expect(searches.filter((s) => s !== null)).toEqual(['timeout']);
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByText('Page 3 error "timeout"');
    expect(router.state.location.search).toBe('?level=error&q=timeout&page=3');
  });

  it('reads the filters from the address, says when nothing matches and clears them', async () => {
    serveFake({ 'GET /api/logs': (r) => answer(r.url) });
    const user = userEvent.setup();
    const { router } = renderApp('/logs?q=nothing');
    expect(await screen.findByText('No matching logs')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search logs' })).toHaveValue('nothing');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('Page 1 all ""');
    expect(screen.getByRole('searchbox', { name: 'Search logs' })).toHaveValue('');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
