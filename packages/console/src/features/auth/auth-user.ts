import type { AppUser } from '@basalt/shared';
import type { Session, User } from '@supabase/supabase-js';

/** usernameOf is the account's username metadata, else the part of the email before the at-sign, else ''. */
export function usernameOf(user: Pick<User, 'email' | 'user_metadata'>): string {
  const fromMetadata: unknown = user.user_metadata?.username;
  if (typeof fromMetadata === 'string' && fromMetadata.trim()) return fromMetadata.trim();
  const email = user.email ?? '';
  const at = email.indexOf('@');
  return at > 0 ? email.slice(0, at) : '';
}

/**
 * mapSupabaseUser builds the application user from the auth account; the account
 * fields the auth service does not know (subscription, admin flag) start empty and come from /api/auth/me.
 * It returns null when the account has no id, which the sign-in checks report.
 */
export function mapSupabaseUser(user: User): AppUser | null {
  if (!user.id) return null;
  return {
    id: user.id,
    username: usernameOf(user),
    email: user.email ?? '',
    isAdmin: false,
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    subscriptionStatus: null,
    subscriptionPlan: null,
    subscriptionRenewalDate: null,
    cancelAtPeriodEnd: null,
    createdAt: user.created_at,
  };
}

/** initialsOf is the first two letters of the username, upper-case (the sidebar's avatar). */
export function initialsOf(username: string): string {
  return username.slice(0, 2).toUpperCase();
}

/** assuranceLevelOf reads the `aal` claim of an access token (aal1 when it cannot be read). */
export function assuranceLevelOf(accessToken: string): string {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const aal: unknown = JSON.parse(json).aal;
    return typeof aal === 'string' ? aal : 'aal1';
  } catch {
    return 'aal1';
  }
}

/** sessionNeedsMfa tells whether a session still needs the second factor: aal1 and a verified factor. */
export function sessionNeedsMfa(session: Session | null): boolean {
  if (!session) return false;
  const verified = session.user.factors?.some((factor) => factor.status === 'verified') ?? false;
  return verified && assuranceLevelOf(session.access_token) !== 'aal2';
}
