import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { clientOf } from './auth-deps.js';
import { type AuthPools, apiKeyOf, depsOf, isInstanceKey } from './auth-gateway.js';
import { requireGoTrueUser } from './auth-guards.js';
import { findFlowState } from './flow-states.store.js';
import { validationFailed } from './gotrue-errors.js';
import { queryOf, UUID_PATTERN } from './gotrue-input.js';
import {
  type AuthorizeInput,
  type CallbackOutcome,
  completeSignIn,
  OAuthFailure,
  providerUrl,
  unlinkIdentity,
} from './oauth.service.js';
import { flowExpired, pkceParamsOf } from './pkce.service.js';

// Query parameters Basalt reads or controls itself; every other one goes on to the provider (prompt, login_hint…).
const RESERVED = new Set([
  'provider',
  'redirect_to',
  'scopes',
  'code_challenge',
  'code_challenge_method',
  'apikey',
  'ref',
  'skip_http_redirect',
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'nonce',
  'response_mode',
]);

function authorizeInput(query: Record<string, string | undefined>): AuthorizeInput {
  if (!query.provider) throw validationFailed('Unsupported provider: missing provider');
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && !RESERVED.has(key.toLowerCase())) extra[key] = value;
  }
  return {
    provider: query.provider,
    redirectTo: query.redirect_to ?? null,
    scopes: query.scopes ?? null,
    pkce: pkceParamsOf(query.code_challenge, query.code_challenge_method),
    extra,
  };
}

/**
 * poolOfBrowserRequest finds the pool of GET /authorize, which a browser opens without headers: an app names itself
 * with its anon key (`apikey`) or its `ref` in the query (supabase-js: signInWithOAuth's options.queryParams);
 * without either it is the console accounts'.
 */
async function poolOfBrowserRequest(request: FastifyRequest, pools: AuthPools) {
  const key = apiKeyOf(request);
  const { ref } = queryOf(request.query);
  if (key) {
    if (await isInstanceKey(pools.console.ctx.tokens, key)) return pools.console;
    const app = await pools.appOfKey(key);
    if (!app) throw new ApiError(401, 'bad_jwt', 'Invalid API key');
    return app;
  }
  if (ref) {
    const app = await pools.appOfRef(ref);
    if (!app) throw validationFailed('No app has this ref');
    return app;
  }
  return pools.console;
}

// GoTrue's error redirect: the error in the fragment, and in the query too for a PKCE flow.
function errorRedirect(reply: FastifyReply, target: string, pkce: boolean, failure: OAuthFailure) {
  const params = { error: failure.error, error_code: failure.code, error_description: failure.message };
  const url = new URL(target);
  if (pkce) for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.hash = new URLSearchParams(params).toString();
  return reply.redirect(url.toString(), 302);
}

function successRedirect(reply: FastifyReply, outcome: CallbackOutcome) {
  const url = new URL(outcome.target);
  for (const [key, value] of Object.entries(outcome.query ?? {})) url.searchParams.set(key, value);
  if (outcome.fragment) url.hash = new URLSearchParams(outcome.fragment).toString();
  return reply.redirect(url.toString(), 302);
}

/** authOAuthRoutes serves GET /authorize, the provider's callback, and linking and unlinking identities. */
export async function authOAuthRoutes(app: FastifyInstance, { pools }: { pools: AuthPools }): Promise<void> {
  app.get('/auth/v1/authorize', async (request, reply) => {
    const deps = await poolOfBrowserRequest(request, pools);
    const url = await providerUrl(deps, authorizeInput(queryOf(request.query)));
    return reply.redirect(url, 302);
  });

  // The provider sends the browser here with `code` and `state` (or `error`); form_post providers POST them.
  const callback = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = { ...queryOf(request.query), ...queryOf(request.body) };
    const consoleSite = pools.console.pool.settings.siteUrl;
    const state = query.state;
    if (!state) {
      return errorRedirect(
        reply,
        consoleSite,
        false,
        new OAuthFailure('invalid_request', 'bad_oauth_callback', 'OAuth state parameter missing'),
      );
    }
    const flow = UUID_PATTERN.test(state) ? await findFlowState(pools.console.ctx.db.kysely, state) : undefined;
    const deps = flow ? (flow.app_ref ? await pools.appOfRef(flow.app_ref) : pools.console) : null;
    if (flow?.kind !== 'oauth' || !deps) {
      return errorRedirect(
        reply,
        consoleSite,
        false,
        new OAuthFailure('invalid_request', 'bad_oauth_state', 'OAuth state not found or expired'),
      );
    }
    const pkce = flow.code_challenge !== null;
    const fail = (failure: OAuthFailure) => errorRedirect(reply, flow.redirect_to, pkce, failure);
    if (flowExpired(flow, deps.now()))
      return fail(new OAuthFailure('invalid_request', 'bad_oauth_state', 'OAuth state has expired'));
    if (flow.user_id)
      return fail(new OAuthFailure('invalid_request', 'flow_state_already_used', 'State has already been used'));
    if (query.error) {
      return fail(new OAuthFailure(query.error, 'bad_oauth_callback', query.error_description ?? query.error));
    }
    if (!query.code) return fail(new OAuthFailure('invalid_request', 'bad_oauth_callback', 'OAuth code missing'));
    const client = clientOf(request);
    try {
      return successRedirect(reply, await completeSignIn(deps, flow, { code: query.code, ...client }));
    } catch (error) {
      if (error instanceof OAuthFailure) return fail(error);
      if (error instanceof ApiError) return fail(new OAuthFailure('server_error', error.code, error.message));
      throw error;
    }
  };
  app.get('/auth/v1/callback', callback);
  app.post('/auth/v1/callback', callback);

  // linkIdentity: supabase-js asks for the provider's URL (skip_http_redirect=true) and opens it itself.
  app.get('/auth/v1/user/identities/authorize', async (request, reply) => {
    const deps = depsOf(request, pools);
    const { account } = await requireGoTrueUser(request, deps);
    const query = queryOf(request.query);
    const url = await providerUrl(deps, { ...authorizeInput(query), linkUserId: account.id });
    if (query.skip_http_redirect === 'true') return { url };
    return reply.redirect(url, 302);
  });

  app.delete('/auth/v1/user/identities/:id', async (request) => {
    const deps = depsOf(request, pools);
    const { account } = await requireGoTrueUser(request, deps);
    const id = (request.params as { id: string }).id;
    if (!UUID_PATTERN.test(id)) throw new ApiError(404, 'validation_failed', 'identity_id must be an UUID');
    await unlinkIdentity(deps, account, id.toLowerCase());
    return {};
  });
}
