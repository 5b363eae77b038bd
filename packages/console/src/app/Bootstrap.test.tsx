import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bootstrap } from './Bootstrap';

const initSupabase = vi.hoisted(() => vi.fn());
vi.mock('@/lib/supabase', () => ({ initSupabase }));
vi.mock('./App', () => ({
  App: ({ config }: { config: { version: string } }) => <p>{`console ${config.version}`}</p>,
}));

const config = {
  siteName: 'Basalt',
  anonKey: 'anon-jwt',
  databaseType: 'sqlite',
  mailConfigured: false,
  version: '0.1.0',
  signupsAllowed: true,
  termsUrl: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('Bootstrap', () => {
  it('loads /api/config, creates the supabase client with the anon key, then renders the app', async () => {
    const fetchMock = vi.fn(async () => Response.json(config));
    vi.stubGlobal('fetch', fetchMock);
    render(<Bootstrap />);
    expect(screen.getByRole('status', { name: 'Starting the console' })).toBeInTheDocument();
    expect(await screen.findByText('console 0.1.0')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/config', expect.anything());
    expect(initSupabase).toHaveBeenCalledWith('anon-jwt');
  });

  it('shows an error card with Retry when the config cannot be loaded', async () => {
    const fetchMock = vi
      .fn<() => Promise<Response>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(Response.json(config));
    vi.stubGlobal('fetch', fetchMock);
    render(<Bootstrap />);
    expect(await screen.findByText('The console could not start')).toBeInTheDocument();
    expect(
      screen.getByText('Could not reach the Basalt server. Check that it is running and try again.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('console 0.1.0')).toBeInTheDocument();
  });

  it('explains a configuration it does not understand', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ siteName: 'Basalt' })),
    );
    render(<Bootstrap />);
    expect(
      await screen.findByText('The server sent a configuration the console does not understand.'),
    ).toBeInTheDocument();
  });
});
