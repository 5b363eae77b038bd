// The account settings' query keys. Imports nothing.

/** userKeys are the account-settings queries. */
export const userKeys = {
  profile: ['/api/user/profile'] as const,
  /** The account's MFA factors (supabase-js mfa.listFactors, from GET /auth/v1/user). */
  factors: ['/auth/v1/user', 'factors'] as const,
};
