import type { Db } from '../../db/database.js';
import { recordActivity } from '../activity/activity.service.js';
import { usernameOf } from './accounts.service.js';
import type { AuthDeps } from './auth-deps.js';
import { createUserWithIdentity } from './identities.service.js';
import type { UserRow } from './user-pool.js';
import './user-events.js';

type NewUserWithIdentity = Parameters<typeof createUserWithIdentity>[2];

/**
 * registerUser is how every flow of the auth services creates a user (sign-up, anonymous sign-in, magic link,
 * invite, OAuth and ID token sign-in, the admin API): the user, its first identity, and the REGISTER entry of the
 * owner's activity feed (not for an anonymous user, who is no one yet). An app's end user is announced on the bus
 * once the scope's transaction commits (`app-user.created`). Throws UniqueViolation on a taken address.
 */
export async function registerUser<R extends UserRow>(
  deps: AuthDeps<R>,
  scope: Db,
  input: NewUserWithIdentity,
  now: Date,
): Promise<R> {
  const user = await createUserWithIdentity(deps, scope.kysely, input, now);
  if (deps.pool.app) scope.publish('app-user.created', { accountId: deps.pool.app.accountId });
  if (input.anonymous) return user;
  await recordActivity(
    scope.kysely,
    {
      accountId: deps.pool.activityAccountOf(user),
      action: 'REGISTER',
      resource: deps.pool.app ? 'app_users' : 'users',
      details: { username: usernameOf(user) },
    },
    now,
  );
  return user;
}
