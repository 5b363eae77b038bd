import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/database.js';
import { recordActivity } from '../../activity/activity.service.js';
import { type Metadata, normalizeEmail, usernameOf } from '../users/accounts.service.js';
import type { UserRegistry, UserRow } from '../users/user-pool.js';
import { createUserWithIdentity } from './identities.service.js';
import '../users/user-events.js';

type NewUserWithIdentity = Parameters<typeof createUserWithIdentity>[2];

/** RegisterOptions say how the owner's activity feed names the new user: signed up (REGISTER) or added (CREATE). */
export interface RegisterOptions {
  action?: 'REGISTER' | 'CREATE';
}

/**
 * registerUser is how every flow creates a user (sign-up, anonymous sign-in, magic link, invite, OAuth and ID token
 * sign-in, the admin API, the Users page, `basalt create-admin`): the user, its first identity, and the entry of
 * the owner's activity feed (not for an anonymous user, who is no one yet). An app's end user is announced on the
 * bus once the scope's transaction commits (`app-user.created`). Throws UniqueViolation on a taken address.
 */
export async function registerUser<R extends UserRow>(
  deps: { pool: UserRegistry<R> },
  scope: Db,
  input: NewUserWithIdentity,
  now: Date,
  { action = 'REGISTER' }: RegisterOptions = {},
): Promise<R> {
  const user = await createUserWithIdentity(deps, scope.kysely, input, now);
  if (deps.pool.app) scope.publish('app-user.created', { accountId: deps.pool.app.accountId });
  if (input.anonymous) return user;
  await recordActivity(
    scope.kysely,
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
  scope: Db,
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
    scope,
    { id, email, passwordHash: input.passwordHash, userMetadata, confirmed: input.confirmed },
    now,
    options,
  );
}
