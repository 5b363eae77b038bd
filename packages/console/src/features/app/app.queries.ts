import { type AppSettingsPatch, appInfoSchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { appKeys } from './app.keys';

// The account's app (issue "Apps with their own users"): GET /api/app, POST /api/app/roll-keys,
// PATCH /api/app {settings}.

const FALLBACK = 'Something went wrong. Please try again.';

/** useAppQuery reads the app: its URL, ref, keys and settings. */
export function useAppQuery() {
  return useQuery({ queryKey: appKeys.app, queryFn: jsonQuery(appInfoSchema) });
}

/** useRollAppKeysMutation issues new app keys; the old ones stop working at once. */
export function useRollAppKeysMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson(appInfoSchema, 'POST', '/api/app/roll-keys'),
    retry: false,
    onSuccess: (app) => {
      queryClient.setQueryData(appKeys.app, app);
      showToast({
        title: 'App keys rolled',
        description: 'The old keys no longer work: update your apps with the new ones.',
        variant: 'success',
      });
    },
    onError: (error) =>
      showToast({
        title: 'Failed to roll app keys',
        description: errorMessage(error, FALLBACK),
        variant: 'destructive',
      }),
  });
}

/** useUpdateAppSettingsMutation saves some of the app's auth settings. */
export function useUpdateAppSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: AppSettingsPatch) => apiJson(appInfoSchema, 'PATCH', '/api/app', { settings }),
    onSuccess: (app) => {
      queryClient.setQueryData(appKeys.app, app);
      showToast({
        title: 'App settings saved',
        description: 'Sign-ups and sign-ins follow them now.',
        variant: 'success',
      });
    },
    onError: (error) =>
      showToast({
        title: 'Failed to save app settings',
        description: errorMessage(error, FALLBACK),
        variant: 'destructive',
      }),
  });
}
