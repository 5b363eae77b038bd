import type { Config } from '../../config.js';
import type { Callers } from '../../http/caller.js';
import { cookieOptions } from '../../http/cookies.js';
import { SESSION_COOKIE } from '../../http/principal.js';
import { answer, type Route } from '../../http/routes/route.js';
import { clientOf } from '../auth/auth-deps.js';
import type { AuthPools } from '../auth/gateway/auth-gateway.js';
import { requireConsoleUser } from '../auth/gateway/auth-guards.js';
import { type AccountDeletionDeps, deleteOwnAccount } from './account-deletion.service.js';
import { changePassword } from './account-password.service.js';
import { toUserProfile, updateProfile } from './account-profile.service.js';

// The signed-in account's own settings; a live session only (bearer
// token or cookie with X-CSRF-Token), never an API key:
//   GET    /api/user/profile          → {id, username, email, marketingEmails, pendingEmail}
//   PATCH  /api/user/profile          {username?, email?, marketingEmails?} → {profile, emailChangePending}
//   POST   /api/user/change-password  {currentPassword, newPassword} → {success, message, otherSessionsEnded}
//   DELETE /api/user                  {confirm: <username>} → {success, message}; the session cookie is cleared

/** AccountRouteDeps is what the account-settings routes use of the server. */
export interface AccountRouteDeps extends AccountDeletionDeps {
  config: Pick<Config, 'siteUrl'>;
  auth: Pick<AuthPools, 'console'>;
  callers: Callers;
}

/** accountRoutes are the account-settings endpoints, over the console's auth services. */
export function accountRoutes(ctx: AccountRouteDeps): Route[] {
  const deps = ctx.auth.console;
  const user = { family: 'console', admit: [ctx.callers.user] } as const;
  return [
    {
      ...user,
      method: 'GET',
      url: '/api/user/profile',
      handler: async (call) => {
        const { account } = await requireConsoleUser(call, deps);
        return answer(toUserProfile(account), { headers: { 'Cache-Control': 'no-store' } });
      },
    },
    {
      ...user,
      method: 'PATCH',
      url: '/api/user/profile',
      handler: async (call) => updateProfile(deps, (await requireConsoleUser(call, deps)).account, call.body),
    },
    {
      ...user,
      method: 'POST',
      url: '/api/user/change-password',
      handler: async (call) => {
        const { account, sessionId } = await requireConsoleUser(call, deps);
        const ended = await changePassword(deps, { account, sessionId, client: clientOf(call) }, call.body);
        return { success: true, message: 'Password updated successfully', otherSessionsEnded: ended };
      },
    },
    {
      ...user,
      method: 'DELETE',
      url: '/api/user',
      handler: async (call, request, reply) => {
        const { account } = await requireConsoleUser(call, deps);
        const deleted = await deleteOwnAccount(ctx, account, call.body);
        request.log.info({ accountId: account.id, ...deleted }, 'account deleted');
        reply.clearCookie(SESSION_COOKIE, cookieOptions(request, ctx.config.siteUrl));
        return { success: true, message: 'Account deleted' };
      },
    },
  ];
}
