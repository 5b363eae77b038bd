import type { Route } from '../../../http/routes/route.js';
import { clientOf } from '../auth-deps.js';
import { depsOf } from '../gateway/auth-gateway.js';
import { requireGoTrueUser } from '../gateway/auth-guards.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from '../manage/mfa.service.js';
import { goTrueSessionOf } from '../manage/user-view.js';
import { factorEnrollSchema, factorVerifySchema, parseGoTrue } from '../protocol/gotrue-input.js';

const factorIdOf = (params: unknown) => (params as { id: string }).id;

/** authMfaRoutes serves the factor endpoints: enroll, challenge, verify and unenroll (supabase-js auth.mfa). */
export function authMfaRoutes({ pools, keyed }: AuthRails): Route[] {
  return [
    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/factors',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const user = await requireGoTrueUser(call, deps);
        const body = parseGoTrue(factorEnrollSchema, call.body);
        return enrollFactor(deps, user, {
          factorType: body.factor_type ?? '',
          friendlyName: body.friendly_name ?? '',
          issuer: body.issuer ?? null,
        });
      },
    },

    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/factors/:id/challenge',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const user = await requireGoTrueUser(call, deps);
        return challengeFactor(deps, user, factorIdOf(call.params), clientOf(call).ip);
      },
    },

    {
      ...keyed,
      method: 'POST',
      url: '/auth/v1/factors/:id/verify',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const user = await requireGoTrueUser(call, deps);
        const body = parseGoTrue(factorVerifySchema, call.body);
        const { account, session } = await verifyFactor(deps, user, factorIdOf(call.params), {
          challengeId: body.challenge_id ?? '',
          code: body.code === null || body.code === undefined ? '' : String(body.code),
          ip: clientOf(call).ip,
        });
        return goTrueSessionOf(deps, session, account);
      },
    },

    {
      ...keyed,
      method: 'DELETE',
      url: '/auth/v1/factors/:id',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const user = await requireGoTrueUser(call, deps);
        return unenrollFactor(deps, user, factorIdOf(call.params));
      },
    },
  ];
}
