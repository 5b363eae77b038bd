import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { cookieOptions } from '../../http/cookies.js';
import { SESSION_COOKIE } from '../../http/principal.js';
import { type AuthDeps, clientOf } from '../auth/auth-deps.js';
import { requireConsoleUser } from '../auth/auth-guards.js';
import { deleteOwnAccount } from './account-deletion.service.js';
import { changePassword } from './account-password.service.js';
import { toUserProfile, updateProfile } from './account-profile.service.js';

// The signed-in account's own settings; a live session only (bearer
// token or cookie with X-CSRF-Token), never an API key:
//   GET    /api/user/profile          → {id, username, email, marketingEmails, pendingEmail}
//   PATCH  /api/user/profile          {username?, email?, marketingEmails?} → {profile, emailChangePending}
//   POST   /api/user/change-password  {currentPassword, newPassword} → {success, message, otherSessionsEnded}
//   DELETE /api/user                  {confirm: <username>} → {success, message}; the session cookie is cleared

/** accountRoutes registers the account-settings endpoints over the auth services. */
export async function accountRoutes(
  app: FastifyInstance,
  { deps, ctx }: { deps: AuthDeps; ctx: AppContext },
): Promise<void> {
  app.get('/api/user/profile', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { account } = await requireConsoleUser(request, deps);
    return toUserProfile(account);
  });

  app.patch('/api/user/profile', async (request) => {
    const { account } = await requireConsoleUser(request, deps);
    return updateProfile(deps, account, request.body);
  });

  app.post('/api/user/change-password', async (request) => {
    const { account, sessionId } = await requireConsoleUser(request, deps);
    const ended = await changePassword(deps, { account, sessionId, client: clientOf(request) }, request.body);
    return { success: true, message: 'Password updated successfully', otherSessionsEnded: ended };
  });

  app.delete('/api/user', async (request, reply) => {
    const { account } = await requireConsoleUser(request, deps);
    const deleted = await deleteOwnAccount(ctx, account, request.body);
    request.log.info({ accountId: account.id, ...deleted }, 'account deleted');
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request, deps.ctx.config.siteUrl));
    return { success: true, message: 'Account deleted' };
  });
}
