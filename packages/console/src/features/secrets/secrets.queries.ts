import { type CreateSecretInput, type Secret, secretSchema, secretValueSchema } from '@basalt/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { refreshAfterSecretWrite } from '@/features/query-refresh';
import { apiJson, apiRequest, jsonQuery } from '@/lib/api';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { secretKeys } from './secrets.keys';

// Secrets: GET/POST /api/secrets, DELETE /api/secrets/{id};
// a value is fetched only when shown or copied (GET /api/secrets/{id}/value, recorded in activity).

const FALLBACK = 'Something went wrong. Please try again.';

const failed = (title: string) => (error: unknown) =>
  showToast({ title, description: errorMessage(error, FALLBACK), variant: 'destructive' });

/** useSecretsQuery lists the account's secrets (never their values). */
export function useSecretsQuery() {
  const query = useQuery({ queryKey: secretKeys.list, queryFn: jsonQuery(z.array(secretSchema)) });
  const { error } = query;
  useEffect(() => {
    if (error) failed('Failed to fetch secrets')(error);
  }, [error]);
  return query;
}

/** useCreateSecretMutation stores a secret, encrypted unless asked otherwise. */
export function useCreateSecretMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSecretInput) => apiJson(secretSchema, 'POST', '/api/secrets', input),
    retry: false,
    onSuccess: (secret) => {
      refreshAfterSecretWrite(queryClient);
      showToast({
        title: 'Secret created',
        description: `Functions read it as Deno.env.get('${secret.name}').`,
        variant: 'success',
      });
    },
    onError: failed('Failed to create secret'),
  });
}

/** useDeleteSecretMutation deletes a secret; functions lose it on their next call. */
export function useDeleteSecretMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (secret: Secret) => {
      await apiRequest('DELETE', `/api/secrets/${secret.id}`);
    },
    onSuccess: (_data, secret) => {
      queryClient.setQueryData<Secret[]>(secretKeys.list, (list) => list?.filter((s) => s.id !== secret.id));
      refreshAfterSecretWrite(queryClient);
      showToast({ title: 'Secret deleted', description: `${secret.name} was deleted.`, variant: 'success' });
    },
    onError: failed('Failed to delete secret'),
  });
}

/** revealSecret fetches one value (the server records that it was revealed). */
export async function revealSecret(secret: Secret): Promise<string> {
  const { value } = await apiJson(secretValueSchema, 'GET', `/api/secrets/${secret.id}/value`);
  return value;
}
