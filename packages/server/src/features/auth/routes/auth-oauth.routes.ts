import { ApiError } from '../../../http/errors.js';
import { type Answer, type Call, type Route, redirect } from '../../../http/routes/route.js';
import { clientOf } from '../auth-deps.js';
import { type AuthPools, apiKeyOf, depsOf, isInstanceKey } from '../gateway/auth-gateway.js';
import { requireGoTrueUser } from '../gateway/auth-guards.js';
import type { AuthRails } from '../gateway/auth-rails.js';
import { validationFailed } from '../protocol/gotrue-errors.js';
import { queryOf, UUID_PATTERN } from '../protocol/gotrue-input.js';
import {
  type AuthorizeInput,
  type CallbackOutcome,
  completeSignIn,
  OAuthFailure,
  providerUrl,
  unlinkIdentity,
} from '../signin/oauth.service.js';
import { flowExpired, pkceParamsOf } from '../signin/pkce.service.js';
import { findFlowState } from '../verification/flow-states.store.js';

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
async function poolOfBrowserRequest(call: Call, pools: AuthPools) {
  const key = apiKeyOf(call);
  const { ref } = queryOf(call.query);
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
function errorRedirect(target: string, pkce: boolean, failure: OAuthFailure): Answer {
  const params = { error: failure.error, error_code: failure.code, error_description: failure.message };
  const url = new URL(target);
  if (pkce) for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.hash = new URLSearchParams(params).toString();
  return redirect(url.toString());
}

function successRedirect(outcome: CallbackOutcome): Answer {
  const url = new URL(outcome.target);
  for (const [key, value] of Object.entries(outcome.query ?? {})) url.searchParams.set(key, value);
  if (outcome.fragment) url.hash = new URLSearchParams(outcome.fragment).toString();
  return redirect(url.toString());
}

// The provider's callback: its query (or a form_post's body) names the flow by `state`.
async function callback(call: Call, pools: AuthPools): Promise<Answer> {
  const query = { ...queryOf(call.query), ...queryOf(call.body) };
  const consoleSite = pools.console.pool.settings.siteUrl;
  const state = query.state;
  if (!state) {
    return errorRedirect(
      consoleSite,
      false,
      new OAuthFailure('invalid_request', 'bad_oauth_callback', 'OAuth state parameter missing'),
    );
  }
  const flow = UUID_PATTERN.test(state) ? await findFlowState(pools.console.ctx.db.kysely, state) : undefined;
  const deps = flow ? (flow.app_ref ? await pools.appOfRef(flow.app_ref) : pools.console) : null;
  if (flow?.kind !== 'oauth' || !deps) {
    return errorRedirect(
      consoleSite,
      false,
      new OAuthFailure('invalid_request', 'bad_oauth_state', 'OAuth state not found or expired'),
    );
  }
  const pkce = flow.code_challenge !== null;
  const fail = (failure: OAuthFailure) => errorRedirect(flow.redirect_to, pkce, failure);
  if (flowExpired(flow, deps.now()))
    return fail(new OAuthFailure('invalid_request', 'bad_oauth_state', 'OAuth state has expired'));
  if (flow.user_id)
    return fail(new OAuthFailure('invalid_request', 'flow_state_already_used', 'State has already been used'));
  if (query.error) {
    return fail(new OAuthFailure(query.error, 'bad_oauth_callback', query.error_description ?? query.error));
  }
  if (!query.code) return fail(new OAuthFailure('invalid_request', 'bad_oauth_callback', 'OAuth code missing'));
  const client = clientOf(call);
  try {
    return successRedirect(await completeSignIn(deps, flow, { code: query.code, ...client }));
  } catch (error) {
    if (error instanceof OAuthFailure) return fail(error);
    if (error instanceof ApiError) return fail(new OAuthFailure('server_error', error.code, error.message));
    throw error;
  }
}

/** authOAuthRoutes serves GET /authorize, the provider's callback, and linking and unlinking identities. */
export function authOAuthRoutes({ pools, keyed, browser }: AuthRails): Route[] {
  return [
    {
      ...browser,
      method: 'GET',
      url: '/auth/v1/authorize',
      handler: async (call) => {
        const deps = await poolOfBrowserRequest(call, pools);
        const url = await providerUrl(deps, authorizeInput(queryOf(call.query)));
        return redirect(url);
      },
    },

    // The provider sends the browser here with `code` and `state` (or `error`); form_post providers POST them.
    {
      ...browser,
      method: ['GET', 'POST'],
      url: '/auth/v1/callback',
      body: 'form',
      handler: (call) => callback(call, pools),
    },

    // linkIdentity: supabase-js asks for the provider's URL (skip_http_redirect=true) and opens it itself.
    {
      ...keyed,
      method: 'GET',
      url: '/auth/v1/user/identities/authorize',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const { account } = await requireGoTrueUser(call, deps);
        const query = queryOf(call.query);
        const url = await providerUrl(deps, { ...authorizeInput(query), linkUserId: account.id });
        if (query.skip_http_redirect === 'true') return { url };
        return redirect(url);
      },
    },

    {
      ...keyed,
      method: 'DELETE',
      url: '/auth/v1/user/identities/:id',
      handler: async (call) => {
        const deps = depsOf(call, pools);
        const { account } = await requireGoTrueUser(call, deps);
        const id = (call.params as { id: string }).id;
        if (!UUID_PATTERN.test(id)) throw new ApiError(404, 'validation_failed', 'identity_id must be an UUID');
        await unlinkIdentity(deps, account, id.toLowerCase());
        return {};
      },
    },
  ];
}
