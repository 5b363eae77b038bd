import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from './api-errors';
import {
  createQueryClient,
  QUERY_STALE_TIME_MS,
  retryDelay,
  shouldRetryMutation,
  shouldRetryQuery,
} from './query-client';

describe('query client defaults', () => {
  it('never retries a 4xx query and retries others up to 3 times', () => {
    expect(shouldRetryQuery(0, new ApiError(404, 'Not found'))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(401, 'Unauthorized'))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(503, 'Unavailable'))).toBe(true);
    expect(shouldRetryQuery(2, new NetworkError())).toBe(true);
    expect(shouldRetryQuery(3, new NetworkError())).toBe(false);
  });

  it('never retries a 4xx mutation and retries others once', () => {
    expect(shouldRetryMutation(0, new ApiError(422, 'Invalid'))).toBe(false);
    expect(shouldRetryMutation(0, new ApiError(500, 'Boom'))).toBe(true);
    expect(shouldRetryMutation(1, new ApiError(500, 'Boom'))).toBe(false);
  });

  it('backs off from 1 s, doubling, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('keeps data fresh for 5 minutes, refetches on focus and never on an interval', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries?.staleTime).toBe(QUERY_STALE_TIME_MS);
    expect(QUERY_STALE_TIME_MS).toBe(300_000);
    expect(queries?.refetchOnWindowFocus).toBe(true);
    expect(queries?.refetchInterval).toBe(false);
  });
});
