import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';
import { isClientError } from './api-errors';

// TanStack Query defaults

/** QUERY_STALE_TIME_MS is how long fetched data counts as fresh. */
export const QUERY_STALE_TIME_MS = 5 * 60_000;
const MAX_QUERY_RETRIES = 3;
const MAX_MUTATION_RETRIES = 1;

/** retryDelay waits 1 s before the first retry and doubles, capped at 30 s. */
export function retryDelay(failureCount: number): number {
  return Math.min(1000 * 2 ** failureCount, 30_000);
}

/** shouldRetryQuery never retries a 4xx and retries anything else up to 3 times. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return !isClientError(error) && failureCount < MAX_QUERY_RETRIES;
}

/** shouldRetryMutation never retries a 4xx and retries anything else once. */
export function shouldRetryMutation(failureCount: number, error: unknown): boolean {
  return !isClientError(error) && failureCount < MAX_MUTATION_RETRIES;
}

/** createQueryClient builds the console's query client: GET the key's path, retry and cache rules. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: QUERY_STALE_TIME_MS,
        refetchOnWindowFocus: true,
        refetchInterval: false,
        retry: shouldRetryQuery,
        retryDelay,
      },
      mutations: {
        retry: shouldRetryMutation,
        retryDelay,
      },
    },
  });
}
