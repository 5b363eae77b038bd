import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '@/lib/api';
import { reportNetworkSignal } from '@/lib/network-signals';
import { ConnectionBanner } from './ConnectionBanner';
import { HEARTBEAT_MS } from './reconnect-schedule';

const noJitter = () => 0;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function goOffline() {
  act(() => {
    window.dispatchEvent(new Event('offline'));
  });
}

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

describe('ConnectionBanner', () => {
  it('is hidden while connected', () => {
    render(<ConnectionBanner probe={vi.fn()} reload={vi.fn()} random={noJitter} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows Connection Lost, then reconnects after a successful probe without reloading', async () => {
    const probe = vi.fn().mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    const reload = vi.fn();
    render(<ConnectionBanner probe={probe} reload={reload} random={noJitter} />);
    goOffline();
    expect(screen.getByText('Connection Lost')).toBeInTheDocument();
    expect(screen.getByText('Your connection to the server has been lost.')).toBeInTheDocument();
    expect(probe).not.toHaveBeenCalled();

    await advance(2000); // attempt 1 fails
    expect(probe).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Reconnecting...')).toBeInTheDocument();
    expect(screen.getByText(/Attempting to re-establish connection\.\.\./)).toBeInTheDocument();
    expect(screen.getByText('(1/10)')).toBeInTheDocument();

    await advance(2999);
    expect(probe).toHaveBeenCalledTimes(1);
    await advance(1); // attempt 2, 3000 ms later, succeeds
    expect(probe).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page when the server comes back after more than 3 attempts', async () => {
    const probe = vi.fn().mockResolvedValue(false);
    const reload = vi.fn();
    render(<ConnectionBanner probe={probe} reload={reload} random={noJitter} />);
    goOffline();
    await advance(2000 + 3000 + 4500 + 6750); // four failed attempts
    expect(probe).toHaveBeenCalledTimes(4);
    probe.mockResolvedValue(true);
    await advance(10125);
    expect(probe).toHaveBeenCalledTimes(5);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('gives up after 10 attempts and keeps Reconnect Now', async () => {
    const probe = vi.fn().mockResolvedValue(false);
    const onReconnectNow = vi.fn();
    render(<ConnectionBanner probe={probe} reload={vi.fn()} random={noJitter} onReconnectNow={onReconnectNow} />);
    goOffline();
    await advance(10 * 60_000);
    expect(probe).toHaveBeenCalledTimes(10);
    expect(screen.getByText('Connection Lost')).toBeInTheDocument();
    vi.useRealTimers();
    await userEvent.click(screen.getByRole('button', { name: 'Reconnect Now' }));
    expect(onReconnectNow).toHaveBeenCalled();
  });

  it('notices a request of the API client that could not reach the server', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    render(<ConnectionBanner probe={vi.fn().mockResolvedValue(true)} reload={vi.fn()} random={noJitter} />);
    await act(() => apiRequest('GET', '/api/stats').catch(() => undefined));
    expect(screen.getByText('Connection Lost')).toBeInTheDocument();
  });

  it('probes at once when the browser reports it is back online', async () => {
    const probe = vi.fn().mockResolvedValue(true);
    render(<ConnectionBanner probe={probe} reload={vi.fn()} random={noJitter} />);
    goOffline();
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(probe).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('notices by itself when the server stops answering, with nothing but cached data on screen', async () => {
    const probe = vi.fn().mockResolvedValueOnce(true).mockResolvedValue(false);
    render(<ConnectionBanner probe={probe} reload={vi.fn()} random={noJitter} />);
    await advance(HEARTBEAT_MS);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await advance(HEARTBEAT_MS); // the server is gone: no request, no offline event, yet the banner shows
    expect(probe).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Connection Lost')).toBeInTheDocument();
    await advance(2000); // and the reconnect schedule takes over
    expect(probe).toHaveBeenCalledTimes(3);
    expect(screen.getByText('Reconnecting...')).toBeInTheDocument();
  });

  it('checks with the server on a doubt, and says nothing while it answers', async () => {
    const probe = vi.fn().mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    render(<ConnectionBanner probe={probe} reload={vi.fn()} random={noJitter} />);
    await act(async () => reportNetworkSignal('doubt'));
    expect(probe).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await act(async () => reportNetworkSignal('doubt'));
    expect(probe).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Connection Lost')).toBeInTheDocument();
  });

  it('does not ask while the tab is hidden, and asks when it shows again', async () => {
    const probe = vi.fn().mockResolvedValue(false);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    render(<ConnectionBanner probe={probe} reload={vi.fn()} random={noJitter} />);
    await advance(3 * HEARTBEAT_MS);
    expect(probe).not.toHaveBeenCalled();
    visibility.mockReturnValue('visible');
    await act(async () => document.dispatchEvent(new Event('visibilitychange')));
    expect(probe).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Connection Lost')).toBeInTheDocument();
    visibility.mockRestore();
  });

  it('sends no heartbeat probe while the realtime socket is connected, and still checks on a doubt', async () => {
    const probe = vi.fn().mockResolvedValue(false);
    let connected = true;
    render(<ConnectionBanner probe={probe} reload={vi.fn()} random={noJitter} live={() => connected} />);
    await advance(3 * HEARTBEAT_MS);
    expect(probe).not.toHaveBeenCalled();
    // A realtime channel that failed says so: the monitor asks the server at once.
    await act(async () => reportNetworkSignal('doubt'));
    expect(probe).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Connection Lost')).toBeInTheDocument();
    connected = false;
  });
});
