import type { AuthDeps } from '../auth-deps.js';
import {
  type GoTrueUser,
  type IssuedSession,
  toGoTrueSession,
  toGoTrueUser,
  type UserRelations,
} from '../users/gotrue-user.js';
import { listIdentitiesOf } from '../users/identities.store.js';
import { listFactorsOf } from '../users/mfa.store.js';
import type { UserRow } from '../users/user-pool.js';

// GoTrue's User and Session as the routes answer them: a user's row with its identities and factors, read in two
// queries for any number of users (the admin list reads a page at once).

/** relationsOf reads the identities and factors of some users of a pool. */
export async function relationsOf<R extends UserRow>(
  deps: AuthDeps<R>,
  userIds: readonly string[],
): Promise<Map<string, UserRelations>> {
  const db = deps.ctx.db.kysely;
  const t = deps.pool.tables;
  const [identities, factors] = await Promise.all([listIdentitiesOf(db, t, userIds), listFactorsOf(db, t, userIds)]);
  const related = new Map<string, UserRelations>(userIds.map((id) => [id, { identities: [], factors: [] }]));
  for (const identity of identities) related.get(identity.account_id)?.identities.push(identity);
  for (const factor of factors) related.get(factor.account_id)?.factors.push(factor);
  return related;
}

/** goTrueUsersOf renders users with their identities and factors. */
export async function goTrueUsersOf<R extends UserRow>(deps: AuthDeps<R>, accounts: R[]): Promise<GoTrueUser[]> {
  const related = await relationsOf(
    deps,
    accounts.map((a) => a.id),
  );
  return accounts.map((a) => toGoTrueUser(a, related.get(a.id) ?? { identities: [], factors: [] }));
}

/** goTrueUserOf renders one user with its identities and factors. */
export async function goTrueUserOf<R extends UserRow>(deps: AuthDeps<R>, account: R): Promise<GoTrueUser> {
  const [user] = await goTrueUsersOf(deps, [account]);
  if (!user) throw new Error('goTrueUserOf: the user was not rendered');
  return user;
}

/** goTrueSessionOf renders a session with its user. */
export async function goTrueSessionOf<R extends UserRow>(
  deps: AuthDeps<R>,
  issued: IssuedSession,
  account: R,
): Promise<Record<string, unknown>> {
  const related = await relationsOf(deps, [account.id]);
  return toGoTrueSession(issued, account, related.get(account.id) ?? { identities: [], factors: [] });
}
