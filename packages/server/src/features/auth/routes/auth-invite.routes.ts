import type { Route } from '../../../http/routes/route.js';
import { depsOf } from '../gateway/auth-gateway.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { goTrueUserOf } from '../manage/user-view.js';
import { validationFailed } from '../protocol/gotrue-errors.js';
import {
  generateLinkBodySchema,
  gotrueEmail,
  inviteBodySchema,
  parseGoTrue,
  queryOf,
} from '../protocol/gotrue-input.js';
import { generateLink, inviteUser } from '../signup/invites.service.js';

/** authInviteRoutes serves POST /invite and POST /admin/generate_link, both with the pool's service key only. */
export function authInviteRoutes({ pools, service }: AuthRails): Route[] {
  return [
    {
      ...service,
      method: 'POST',
      url: '/auth/v1/invite',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const body = parseGoTrue(inviteBodySchema, call.body);
        if (!body.email) throw validationFailed('An email address is required');
        const user = await inviteUser(deps, {
          email: gotrueEmail(body.email),
          data: body.data ?? {},
          redirectTo: queryOf(call.query).redirect_to ?? null,
        });
        return goTrueUserOf(deps, user);
      },
    },

    {
      ...service,
      method: 'POST',
      url: '/auth/v1/admin/generate_link',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const body = parseGoTrue(generateLinkBodySchema, call.body);
        const redirectTo = queryOf(call.query).redirect_to ?? body.redirect_to ?? body.redirectTo ?? null;
        const { user, issued, verificationType } = await generateLink(deps, body, redirectTo);
        return {
          ...(await goTrueUserOf(deps, (await deps.pool.users.findById(deps.ctx.db.kysely, user.id)) ?? user)),
          action_link: issued.link,
          email_otp: issued.code,
          hashed_token: issued.token,
          verification_type: verificationType,
          redirect_to: issued.redirectTo,
        };
      },
    },
  ];
}
