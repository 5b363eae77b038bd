import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useConsoleConfig } from '@/lib/config';
import { authKeys } from './auth.keys';

// The sign-in providers the operator configured for console accounts, as GET /auth/v1/settings reports them
// (Basalt's `providers`: id and button label, custom OpenID Connect issuers included).

const settingsSchema = z.object({
  providers: z.array(z.object({ id: z.string(), name: z.string() })).default([]),
});

/** AuthProvider is one "Continue with …" button. */
export type SignInProvider = z.infer<typeof settingsSchema>['providers'][number];

/** useSignInProvidersQuery lists the configured providers; none when the settings cannot be read. */
export function useSignInProvidersQuery() {
  const { anonKey } = useConsoleConfig();
  return useQuery({
    queryKey: authKeys.settings,
    queryFn: async (): Promise<SignInProvider[]> => {
      const res = await fetch('/auth/v1/settings', { headers: { apikey: anonKey, accept: 'application/json' } });
      if (!res.ok) return [];
      const parsed = settingsSchema.safeParse(await res.json());
      return parsed.success ? parsed.data.providers : [];
    },
    staleTime: 60_000,
    retry: false,
  });
}
