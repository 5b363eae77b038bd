import { loginRequestSchema, registerRequestSchema } from '@basalt/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Callers } from '../../../http/caller.js';
import { cookieOptions } from '../../../http/cookies.js';
import { ApiError, conflict } from '../../../http/errors.js';
import { SESSION_COOKIE } from '../../../http/principal.js';
import { answer, type Route } from '../../../http/routes/route.js';
import { parseInput } from '../../../http/validation.js';
import { recordActivity } from '../../activity/activity.service.js';
import { type AuthDeps, clientOf } from '../auth-deps.js';
import { requireConsoleUser } from '../gateway/auth-guards.js';
import { goTrueSessionOf } from '../manage/user-view.js';
import { SignInRefused, signInWithPassword } from '../signin/sign-in.service.js';
import { signUp } from '../signup/registration.service.js';
import { signupsOpen } from '../signup/signups-open.js';
import { findAccount, toAppUser, UniqueViolation, usernameOf } from '../users/accounts.service.js';

// The console cookie lives as long as a remembered browser session would; the server session it names
// ends on logout (any scope) or a password change.
const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 3600;

const CLASHES = {
  email: 'An account with this email already exists',
  username: 'This username is already taken',
} as const;

const REFUSALS = {
  invalid_credentials: () => new ApiError(401, 'invalid_credentials', 'Invalid email or password'),
  email_not_confirmed: () =>
    new ApiError(403, 'email_not_confirmed', 'Please confirm your email address before signing in.'),
  user_banned: () => new ApiError(403, 'user_banned', 'This account is banned.'),
};

const signupsClosed = () =>
  new ApiError(403, 'signup_disabled', 'Sign-ups are closed on this instance. Ask its administrator for an account.');

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, deps: AuthDeps, value: string): void {
  reply.setCookie(SESSION_COOKIE, value, {
    ...cookieOptions(request, deps.ctx.config.siteUrl),
    maxAge: COOKIE_MAX_AGE_SECONDS,
  });
}

/** consoleAuthRoutes serves the console's /api/auth/register, login, me and logout. */
export function consoleAuthRoutes(deps: AuthDeps, callers: Callers): Route[] {
  const anyone = { family: 'console', admit: [callers.anyone] } as const;
  return [
    {
      ...anyone,
      method: 'POST',
      url: '/api/auth/register',
      handler: async (call, request, reply) => {
        const input = parseInput(registerRequestSchema, call.body);
        const client = clientOf(call);
        await deps.limits.attempt('signup', { ip: client.ip, email: input.email });
        if (!(await signupsOpen(deps))) throw signupsClosed();
        const outcome = await signUp(deps, {
          email: input.email,
          password: input.password,
          userMetadata: { username: input.username },
          redirectTo: null,
          client,
          withCookie: true,
        }).catch((error: unknown) => {
          if (!(error instanceof UniqueViolation)) throw error;
          const message = CLASHES[error.column];
          throw conflict(message, `${error.column}_exists`, { fieldErrors: { [error.column]: [message] } });
        });
        if (outcome.kind === 'exists_confirmed') {
          throw conflict(CLASHES.email, 'email_exists', { fieldErrors: { email: [CLASHES.email] } });
        }
        if (outcome.kind === 'confirmation_sent') {
          return answer({ user: toAppUser(outcome.account), session: null }, { status: 201 });
        }
        if (outcome.cookieToken) setSessionCookie(request, reply, deps, outcome.cookieToken);
        const session = await goTrueSessionOf(deps, outcome.session, outcome.account);
        return answer({ user: toAppUser(outcome.account), session }, { status: 201 });
      },
    },
    {
      ...anyone,
      method: 'POST',
      url: '/api/auth/login',
      handler: async (call, request, reply) => {
        const input = parseInput(loginRequestSchema, call.body);
        const signedIn = await signInWithPassword(deps, { ...input, client: clientOf(call), withCookie: true }).catch(
          (error: unknown) => {
            throw error instanceof SignInRefused ? REFUSALS[error.reason]() : error;
          },
        );
        if (signedIn.cookieToken) setSessionCookie(request, reply, deps, signedIn.cookieToken);
        return {
          user: toAppUser(signedIn.account),
          session: await goTrueSessionOf(deps, signedIn.session, signedIn.account),
        };
      },
    },
    {
      family: 'console',
      admit: [callers.user],
      method: 'GET',
      url: '/api/auth/me',
      handler: async (call) => {
        const { account } = await requireConsoleUser(call, deps);
        return answer({ user: toAppUser(account) }, { headers: { 'Cache-Control': 'no-store' } });
      },
    },
    // Logging out twice, or with a session that already ended, still succeeds and clears the cookie.
    {
      ...anyone,
      method: 'POST',
      url: '/api/auth/logout',
      handler: async (call, request, reply) => {
        const principal = call.principal;
        if (principal.kind === 'user' && principal.sessionId) {
          const ended = await deps.sessions.end(principal.accountId, principal.sessionId, 'local');
          const account = ended ? await findAccount(deps.ctx.db.kysely, principal.accountId) : undefined;
          if (account) {
            await recordActivity(
              deps.ctx.db.kysely,
              { accountId: account.id, action: 'LOGOUT', resource: 'auth', details: { username: usernameOf(account) } },
              deps.now(),
            );
          }
        }
        reply.clearCookie(SESSION_COOKIE, cookieOptions(request, deps.ctx.config.siteUrl));
        return { success: true };
      },
    },
  ];
}
