import type { z } from 'zod';
import { ApiError } from '../../../http/errors.js';
import type { AuthDeps } from '../auth-deps.js';
import { clashError, emailExists, validationFailed, weakPassword } from '../protocol/gotrue-errors.js';
import { type generateLinkBodySchema, gotrueEmail } from '../protocol/gotrue-input.js';
import type { Metadata } from '../users/accounts.service.js';
import { hashPassword, passwordWeakness } from '../users/passwords.js';
import type { UserRow } from '../users/user-pool.js';
import type { IssuedMail, MailKind } from '../verification/verification.service.js';
import { registerUser } from './user-creation.service.js';

// Invitations (POST /invite, supabase-js admin.inviteUserByEmail) and the links an administrator generates without
// a mail (POST /admin/generate_link). An invited user has no password: following the invitation signs them in
// (type `invite`), and they accept it by setting one with updateUser({password}).

/** GenerateLinkBody is a parsed POST /admin/generate_link. */
export type GenerateLinkBody = z.output<typeof generateLinkBodySchema>;

// Creates an account for a new address (an invitation or a generated sign-up link), recorded as a sign-up.
async function createInvitee<R extends UserRow>(
  deps: AuthDeps<R>,
  input: { email: string; passwordHash: string | null; userMetadata: Metadata; invited: boolean },
): Promise<R> {
  return deps.ctx.db
    .transaction(async (scope) => {
      const now = deps.now();
      const user = await registerUser(
        deps,
        scope,
        {
          email: input.email,
          passwordHash: input.passwordHash,
          userMetadata: input.userMetadata,
          confirmed: false,
          ...(input.invited ? { invitedAt: now.toISOString() } : {}),
        },
        now,
      );
      return user;
    })
    .catch((error: unknown) => {
      throw clashError(error);
    });
}

/** inviteUser is POST /invite: a new (or still unconfirmed) address gets an invitation mail; returns the user. */
export async function inviteUser<R extends UserRow>(
  deps: AuthDeps<R>,
  input: { email: string; data: Metadata; redirectTo: string | null },
): Promise<R> {
  const existing = await deps.pool.users.findByEmail(deps.ctx.db.kysely, input.email);
  if (existing?.email_confirmed_at) throw emailExists();
  const user =
    existing ??
    (await createInvitee(deps, { email: input.email, passwordHash: null, userMetadata: input.data, invited: true }));
  await deps.verification.send(user, 'invite', { redirectTo: input.redirectTo });
  return user;
}

/** GeneratedLink is the answer of generate_link: the user and the link's properties. */
export interface GeneratedLink<R extends UserRow> {
  user: R;
  issued: IssuedMail;
  verificationType: string;
}

const LINK_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new'];

/** generateLink is POST /admin/generate_link: the link and code a mail would carry, without sending it. */
export async function generateLink<R extends UserRow>(
  deps: AuthDeps<R>,
  body: GenerateLinkBody,
  redirectTo: string | null,
): Promise<GeneratedLink<R>> {
  let type = body.type ?? '';
  if (!LINK_TYPES.includes(type)) throw validationFailed(`Invalid email action link type requested: ${type}`);
  if (!body.email) throw validationFailed('An email address is required');
  const email = gotrueEmail(body.email);
  let user = await deps.pool.users.findByEmail(deps.ctx.db.kysely, email);
  if (!user) {
    if (type === 'magiclink') type = 'signup';
    else if (type !== 'signup' && type !== 'invite') {
      throw new ApiError(404, 'user_not_found', 'User with this email not found');
    }
  }
  let kind: MailKind;
  let newEmail: string | undefined;
  switch (type) {
    case 'signup': {
      if (user?.email_confirmed_at) throw emailExists();
      let passwordHash: string | null = null;
      if (body.password) {
        const weakness = passwordWeakness(body.password, deps.pool.settings.passwordPolicy);
        if (weakness) throw weakPassword(weakness);
        passwordHash = await hashPassword(body.password);
      } else if (body.type === 'signup') {
        throw validationFailed('Signup requires a valid password');
      }
      user ??= await createInvitee(deps, { email, passwordHash, userMetadata: body.data ?? {}, invited: false });
      kind = 'signup';
      break;
    }
    case 'invite':
      if (user?.email_confirmed_at) throw emailExists();
      user ??= await createInvitee(deps, { email, passwordHash: null, userMetadata: body.data ?? {}, invited: true });
      kind = 'invite';
      break;
    case 'magiclink':
    case 'recovery':
      kind = type;
      break;
    case 'email_change_current':
      throw validationFailed('Enable secure email change to generate link for current email');
    default: {
      if (!body.new_email) throw validationFailed('The new email address is required');
      newEmail = gotrueEmail(body.new_email);
      if (await deps.pool.users.findByEmail(deps.ctx.db.kysely, newEmail)) throw emailExists();
      kind = 'email_change';
    }
  }
  if (!user) throw new ApiError(404, 'user_not_found', 'User with this email not found');
  const issued = await deps.verification.issue(user, kind, { redirectTo, newEmail, unlimited: true });
  return { user, issued, verificationType: type };
}
