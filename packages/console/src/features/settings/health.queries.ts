import { databaseCheckSchema, databaseHealthSchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiJson, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { healthKeys } from './health.keys';

// Database health: GET /api/health/database, polled every
// 60 s, and POST /api/health/database/check {fullDiagnostic: true}, which also runs the integrity check.

/** HEALTH_POLL_MS is how often the health card checks by itself. */
export const HEALTH_POLL_MS = 60_000;

/**
 * useDatabaseHealthQuery checks the database now and every 60 s after. A problem is toasted when it appears, not
 * at every check that still finds it: the badge keeps showing it.
 */
export function useDatabaseHealthQuery() {
  const health = useQuery({
    queryKey: healthKeys.database,
    queryFn: jsonQuery(databaseHealthSchema),
    refetchInterval: HEALTH_POLL_MS,
  });
  const problem = health.isError
    ? `error:${errorMessage(health.error, 'An unknown error occurred')}`
    : health.data && !health.data.connected
      ? `down:${health.data.message}`
      : null;
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (problem === reported.current) return;
    reported.current = problem;
    if (problem?.startsWith('error:'))
      showToast({ title: 'Error checking database health', description: problem.slice(6), variant: 'destructive' });
    else if (problem?.startsWith('down:'))
      showToast({ title: 'Database connection issue', description: problem.slice(5), variant: 'destructive' });
  }, [problem]);
  return health;
}

/** useRunHealthCheckMutation runs the full diagnostic and shows its answer on the card. */
export function useRunHealthCheckMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson(databaseCheckSchema, 'POST', '/api/health/database/check', { fullDiagnostic: true }),
    retry: false,
    // The card's health becomes this answer; useDatabaseHealthQuery toasts a connection issue.
    onSuccess: ({ integrity: _integrity, ...health }) => queryClient.setQueryData(healthKeys.database, health),
    onError: (error) =>
      showToast({
        title: 'Error checking database health',
        description: errorMessage(error, 'An unknown error occurred'),
        variant: 'destructive',
      }),
  });
}
