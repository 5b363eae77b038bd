import { type ApiKey, apiKeySchema, type CreateApiKeyInput, createdApiKeySchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { refreshAfterKeyWrite } from '@/features/query-refresh';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { keyKeys } from './keys.keys';

// API keys: GET /api/keys, POST /api/keys {name} (the secret comes back once),
// DELETE /api/keys/{id}.

const FALLBACK = 'Something went wrong. Please try again.';

/** useApiKeysQuery lists the account's keys (never their secrets). */
export function useApiKeysQuery() {
  return useQuery({ queryKey: keyKeys.list, queryFn: jsonQuery(z.array(apiKeySchema)) });
}

/** useCreateApiKeyMutation creates a key and returns its secret, shown this once. */
export function useCreateApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => apiJson(createdApiKeySchema, 'POST', '/api/keys', input),
    // A retried create could make a second key whose secret nobody ever sees.
    retry: false,
    onSuccess: () => {
      refreshAfterKeyWrite(queryClient);
      showToast({ title: 'API Key created', description: 'Copy it now: it is shown only once.', variant: 'success' });
    },
    onError: (error) =>
      showToast({
        title: 'Failed to create API key',
        description: errorMessage(error, FALLBACK),
        variant: 'destructive',
      }),
  });
}

/** useDeleteApiKeyMutation deletes a key; apps using it stop working at once. */
export function useDeleteApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (key: ApiKey) => {
      await apiRequest('DELETE', `/api/keys/${key.id}`);
    },
    onSuccess: (_data, key) => {
      queryClient.setQueryData<ApiKey[]>(keyKeys.list, (list) => list?.filter((k) => k.id !== key.id));
      refreshAfterKeyWrite(queryClient);
      showToast({ title: 'API Key deleted', description: `${key.name} no longer works.`, variant: 'success' });
    },
    onError: (error) =>
      showToast({
        title: 'Failed to delete API key',
        description: errorMessage(error, FALLBACK),
        variant: 'destructive',
      }),
  });
}
