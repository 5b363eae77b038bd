import { randomUUID } from 'node:crypto';
import { recordActivity } from '../activity/activity.service.js';
import { type Metadata, normalizeEmail, usernameOf } from './accounts.service.js';
import { createUserWithIdentity } from './identities.service.js';
import type { UserRegistry, UserRow } from './user-pool.js';

type Trx = Parameters<typeof createUserWithIdentity>[1];
type NewUserWithIdentity = Parameters<typeof createUserWithIdentity>[2];

/** RegisterOptions say how the owner's activity feed names the new user: signed up (REGISTER) or added (CREATE). */
export interface RegisterOptions {
  action?: 'REGISTER' | 'CREATE';
}

/**
 * registerUser is how every flow creates a user (sign-up, anonymous sign-in, magic link, invite, OAuth and ID token
 * sign-in, the admin API, the Users page, `basalt create-admin`): the user, its first identity, and the entry of
 * the owner's activity feed (not for an anonymous user, who is no one yet). Throws UniqueViolation on a taken
 * address.
 */
export async function registerUser<R extends UserRow>(
  deps: { pool: UserRegistry<R> },
  trx: Trx,
  input: NewUserWithIdentity,
  now: Date,
  { action = 'REGISTER' }: RegisterOptions = {},
): Promise<R> {
  const user = await createUserWithIdentity(deps, trx, input, now);
  if (input.anonymous) return user;
  await recordActivity(
    trx,
    {
      accountId: deps.pool.activityAccountOf(user),
      action,
      resource: deps.pool.app ? 'app_users' : 'users',
      details: { username: usernameOf(user) },
    },
    now,
  );
  return user;
}

/** EmailUser is a user of the email provider: an address, a password (or none) and metadata. */
export interface EmailUser {
  email: string;
  passwordHash: string | null;
  userMetadata: Metadata;
  confirmed: boolean;
}

/**
 * registerEmailUser creates a user of the email provider as a sign-up does: GoTrue keeps the email identity's
 * claims in its user_metadata too. The Users page and `basalt create-admin` make theirs with it, so that their users
 * are the same rows as signed-up ones.
 */
export function registerEmailUser<R extends UserRow>(
  deps: { pool: UserRegistry<R> },
  trx: Trx,
  input: EmailUser,
  now: Date,
  options: RegisterOptions = {},
): Promise<R> {
  const id = randomUUID();
  const email = normalizeEmail(input.email);
  const userMetadata = {
    ...input.userMetadata,
    email,
    email_verified: input.confirmed,
    phone_verified: false,
    sub: id,
  };
  return registerUser(
    deps,
    trx,
    { id, email, passwordHash: input.passwordHash, userMetadata, confirmed: input.confirmed },
    now,
    options,
  );
}
