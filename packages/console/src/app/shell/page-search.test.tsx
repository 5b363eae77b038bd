import type { TableResponse } from '@basalt/shared';
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fake-backend';
import { serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp } from '@/test/render-app';

// The top bar's search finds the account's tables by name as well as the console's pages.

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });
vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const orders: TableResponse = {
  id: 9,
  name: 'customer_orders',
  description: null,
  schema: { id: { type: 'number', required: true, unique: true } },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('the page search', () => {
  it('opens a table named by the text, and still opens pages by name', async () => {
    serveFake({ 'GET /api/tables': () => json(200, [orders]) });
    const user = userEvent.setup();
    const { router } = renderApp('/');
    const search = await screen.findByRole('combobox', { name: 'Search' });
    await user.click(search);
    await waitFor(() => expect(document.querySelector('option[value="customer_orders"]')).not.toBeNull());
    await user.type(search, 'orders{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/tables/9'));
    await user.type(search, 'Settings{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
  });
});
