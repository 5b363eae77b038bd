// Who acts. One value, built once per request from the verified token, key or session (http/principal.ts) and
// handed to every service with the scope; services read it, never a header. Background jobs build their own.

/** ProjectRole is a member's role in a project, from most to least powerful. */
export type ProjectRole = 'OWNER' | 'ADMIN' | 'DEVELOPER' | 'EDITOR' | 'VIEWER';

/** EndUser is a signed-in user of an account's app (not a console account). */
export interface EndUser {
  id: string;
}

/**
 * AppAccess is how a request reached the data through an account's app: with its anon key (signed out), as one
 * of its end users (authenticated), or with its service key (service_role, the owner's full access). Table access
 * rules apply to the first two (features/records/record-rules.ts).
 */
export interface AppAccess {
  ref: string;
  role: 'anon' | 'authenticated' | 'service_role';
}

/**
 * Actor is who acts, and on whose data: `accountId` is the account whose tables, keys and settings are reached
 * (for an end user, the account that owns the app); a project member acts in `projectId` with `role`; `keyId`
 * names the API key used, if any; `app` says the request came through the account's app (`endUser` is set for
 * its signed-in users). A member reaching a table another account shares with a project acts with that account's
 * `accountId`, its own account as `memberId`, and the project and role that let it in
 * (features/projects/project-access.ts builds such an actor for one table at a time).
 */
export interface Actor {
  accountId: string;
  /** admin is set for a console account that administers the instance (the caller step reads it once). */
  admin?: boolean;
  projectId?: string;
  role?: ProjectRole;
  /** The member's own account, when it acts on `accountId`'s table through `projectId`. */
  memberId?: string;
  endUser?: EndUser;
  keyId?: number;
  app?: AppAccess;
}

/** accountActor is an account acting on its own data (the console, its API keys, a job of its own). */
export function accountActor(accountId: string, keyId?: number): Actor {
  return keyId === undefined ? { accountId } : { accountId, keyId };
}

/** appActor is a caller of an account's app: signed out (anon), an end user, or the app's service key. */
export function appActor(accountId: string, app: AppAccess, endUserId?: string): Actor {
  return endUserId === undefined ? { accountId, app } : { accountId, app, endUser: { id: endUserId } };
}

/** actorIdOf is who history and activity name as having acted: the end user, else the member, else the account. */
export function actorIdOf(actor: Actor): string {
  return actor.endUser?.id ?? actor.memberId ?? actor.accountId;
}
