import type { FastifyInstance } from 'fastify';
import { clientOf } from './auth-deps.js';
import { type AuthPools, depsOf } from './auth-gateway.js';
import { requireGoTrueUser } from './auth-guards.js';
import { factorEnrollSchema, factorVerifySchema, parseGoTrue } from './gotrue-input.js';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './mfa.service.js';
import { goTrueSessionOf } from './user-view.js';

const factorIdOf = (params: unknown) => (params as { id: string }).id;

/** authMfaRoutes serves the factor endpoints: enroll, challenge, verify and unenroll (supabase-js auth.mfa). */
export async function authMfaRoutes(app: FastifyInstance, { pools }: { pools: AuthPools }): Promise<void> {
  app.post('/auth/v1/factors', async (request) => {
    const deps = depsOf(request, pools);
    const user = await requireGoTrueUser(request, deps);
    const body = parseGoTrue(factorEnrollSchema, request.body);
    return enrollFactor(deps, user, {
      factorType: body.factor_type ?? '',
      friendlyName: body.friendly_name ?? '',
      issuer: body.issuer ?? null,
    });
  });

  app.post('/auth/v1/factors/:id/challenge', async (request) => {
    const deps = depsOf(request, pools);
    const user = await requireGoTrueUser(request, deps);
    return challengeFactor(deps, user, factorIdOf(request.params), clientOf(request).ip);
  });

  app.post('/auth/v1/factors/:id/verify', async (request) => {
    const deps = depsOf(request, pools);
    const user = await requireGoTrueUser(request, deps);
    const body = parseGoTrue(factorVerifySchema, request.body);
    const { account, session } = await verifyFactor(deps, user, factorIdOf(request.params), {
      challengeId: body.challenge_id ?? '',
      code: body.code === null || body.code === undefined ? '' : String(body.code),
      ip: clientOf(request).ip,
    });
    return goTrueSessionOf(deps, session, account);
  });

  app.delete('/auth/v1/factors/:id', async (request) => {
    const deps = depsOf(request, pools);
    const user = await requireGoTrueUser(request, deps);
    return unenrollFactor(deps, user, factorIdOf(request.params));
  });
}
