import type { FastifyInstance } from 'fastify';
import { type AuthPools, depsOf } from './auth-gateway.js';
import { requireServiceRole } from './auth-guards.js';
import { validationFailed } from './gotrue-errors.js';
import { generateLinkBodySchema, gotrueEmail, inviteBodySchema, parseGoTrue, queryOf } from './gotrue-input.js';
import { generateLink, inviteUser } from './invites.service.js';
import { goTrueUserOf } from './user-view.js';

/** authInviteRoutes serves POST /invite and POST /admin/generate_link, both with the pool's service key only. */
export async function authInviteRoutes(app: FastifyInstance, { pools }: { pools: AuthPools }): Promise<void> {
  app.addHook('preHandler', async (request) => requireServiceRole(request, depsOf(request, pools)));

  app.post('/auth/v1/invite', async (request) => {
    const deps = depsOf(request, pools);
    const body = parseGoTrue(inviteBodySchema, request.body);
    if (!body.email) throw validationFailed('An email address is required');
    const user = await inviteUser(deps, {
      email: gotrueEmail(body.email),
      data: body.data ?? {},
      redirectTo: queryOf(request.query).redirect_to ?? null,
    });
    return goTrueUserOf(deps, user);
  });

  app.post('/auth/v1/admin/generate_link', async (request) => {
    const deps = depsOf(request, pools);
    const body = parseGoTrue(generateLinkBodySchema, request.body);
    const redirectTo = queryOf(request.query).redirect_to ?? body.redirect_to ?? body.redirectTo ?? null;
    const { user, issued, verificationType } = await generateLink(deps, body, redirectTo);
    return {
      ...(await goTrueUserOf(deps, (await deps.pool.users.findById(deps.ctx.db.kysely, user.id)) ?? user)),
      action_link: issued.link,
      email_otp: issued.code,
      hashed_token: issued.token,
      verification_type: verificationType,
      redirect_to: issued.redirectTo,
    };
  });
}
