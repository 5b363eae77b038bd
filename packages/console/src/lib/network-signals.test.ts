import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchReportingLoss, onNetworkSignal } from './network-signals';

afterEach(() => vi.unstubAllGlobals());

function listen() {
  const signals: string[] = [];
  const unsubscribe = onNetworkSignal((signal) => signals.push(signal));
  return { signals, unsubscribe };
}

describe('fetchReportingLoss (the fetch supabase-js uses)', () => {
  it('passes answers through, errors included, without a signal', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 503 })),
    );
    const { signals, unsubscribe } = listen();
    expect((await fetchReportingLoss('/rest/v1/orders')).status).toBe(503);
    unsubscribe();
    expect(signals).toEqual([]);
  });

  it('reports a request that never reached the server as lost', async () => {
    const failure = new TypeError('Failed to fetch');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(failure));
    const { signals, unsubscribe } = listen();
    await expect(fetchReportingLoss('/rest/v1/orders')).rejects.toBe(failure);
    unsubscribe();
    expect(signals).toEqual(['lost']);
  });

  it('does not count a request the caller cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('aborted')));
    const { signals, unsubscribe } = listen();
    await expect(fetchReportingLoss('/rest/v1/orders', { signal: controller.signal })).rejects.toThrow();
    unsubscribe();
    expect(signals).toEqual([]);
  });
});
