import type { Factor } from '@supabase/supabase-js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api-errors';
import { getSupabase } from '@/lib/supabase';
import { showToast } from '@/lib/toast';
import { userKeys } from './settings.keys';

// Two-factor authentication of the console account, through supabase-js auth.mfa (GoTrue's factor endpoints).

/** PendingFactor is a factor just enrolled: what the authenticator app needs, shown once. */
export interface PendingFactor {
  id: string;
  qrCode: string;
  secret: string;
}

const mfa = () => getSupabase().auth.mfa;

/** useFactorsQuery lists the account's factors (verified and pending). */
export function useFactorsQuery() {
  return useQuery({
    queryKey: userKeys.factors,
    queryFn: async (): Promise<Factor[]> => {
      const { data, error } = await mfa().listFactors();
      if (error) throw error;
      return data.all;
    },
  });
}

/** useEnrollFactorMutation starts a TOTP factor; pending factors left from an earlier try are removed first. */
export function useEnrollFactorMutation() {
  return useMutation({
    mutationFn: async (pending: Factor[]): Promise<PendingFactor> => {
      for (const factor of pending) await mfa().unenroll({ factorId: factor.id });
      const { data, error } = await mfa().enroll({ factorType: 'totp' });
      if (error) throw error;
      return { id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
    },
    retry: false,
    onError: (error) =>
      showToast({ title: 'Could not start the setup', description: errorMessage(error), variant: 'destructive' }),
  });
}

/** useVerifyFactorMutation checks the first code: the factor is on, and this session is aal2. */
export function useVerifyFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ factorId, code }: { factorId: string; code: string }) => {
      const { error } = await mfa().challengeAndVerify({ factorId, code });
      if (error) throw error;
    },
    retry: false,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userKeys.factors });
      showToast({
        title: 'Two-factor authentication is on',
        description: 'Signing in will ask for a code from your authenticator app.',
        variant: 'success',
      });
    },
  });
}

/** useUnenrollFactorMutation removes a factor (a verified one only from a session that used it). */
export function useUnenrollFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (factorId: string) => {
      const { error } = await mfa().unenroll({ factorId });
      if (error) throw error;
    },
    retry: false,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userKeys.factors });
      showToast({ title: 'Two-factor authentication is off', variant: 'success' });
    },
    onError: (error) =>
      showToast({ title: 'Could not turn it off', description: errorMessage(error), variant: 'destructive' }),
  });
}
