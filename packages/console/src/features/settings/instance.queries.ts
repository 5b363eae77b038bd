import { type InstanceSettingsPatch, instanceSettingsSchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';

/** instanceKeys are the instance settings' queries (administrators). */
export const instanceKeys = { settings: ['/api/admin/instance'] as const };

/** useInstanceSettingsQuery reads the instance's settings. */
export function useInstanceSettingsQuery() {
  return useQuery({ queryKey: instanceKeys.settings, queryFn: jsonQuery(instanceSettingsSchema) });
}

/** useSaveInstanceSettingsMutation saves console sign-ups and the terms URL. */
export function useSaveInstanceSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InstanceSettingsPatch) =>
      apiJson(instanceSettingsSchema, 'PATCH', '/api/admin/instance', input),
    onSuccess: (settings) => {
      queryClient.setQueryData(instanceKeys.settings, settings);
      showToast({ title: 'Instance settings saved', variant: 'success' });
    },
    onError: (error) =>
      showToast({ title: 'Instance settings not saved', description: errorMessage(error), variant: 'destructive' }),
  });
}
