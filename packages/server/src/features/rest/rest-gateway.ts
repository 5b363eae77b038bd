import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../http/principal.js';
import { apiKeyOf } from '../auth/auth-gateway.js';
import type { TokenService } from '../auth/tokens.service.js';
import { RestQueryError } from './rest-query.errors.js';

// Who may call /rest/v1 (protocol §1.3, §3.1, §5): the gateway wants this instance's anon or service key as
// `apikey` (header or query parameter), and the data API wants a signed-in user, whose account scopes every
// table and row. request.principal was resolved from the bearer token before this runs (http/principal.ts).

/** RestCaller is the account a data-API request acts for. */
export interface RestCaller {
  accountId: string;
}

async function isInstanceKey(tokens: TokenService, key: string): Promise<boolean> {
  // The fast path is a string comparison; another key JWT of this instance (e.g. signed before a restart
  // with a new expiry) is verified.
  if (tokens.roleOfKey(key)) return true;
  if (key.split('.').length !== 3) return false;
  try {
    const { role } = await tokens.verify(key);
    return role === 'anon' || role === 'service_role';
  } catch {
    return false;
  }
}

/** restApiKeyGateway is the onRequest hook of /rest/v1: 401 without this instance's key, as Supabase's gateway. */
export function restApiKeyGateway(tokens: TokenService) {
  // A callback hook: the usual key is this instance's own, recognised without waiting.
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const key = apiKeyOf(request);
    if (!key) return reply.code(401).send({ message: 'No API key found in request' });
    if (tokens.roleOfKey(key)) return done();
    isInstanceKey(tokens, key).then((valid) => {
      if (valid) done();
      else reply.code(401).send({ message: 'Invalid API key' });
    }, done);
  };
}

const invalidToken = (code: string, message: string) =>
  new RestQueryError(401, code, message).withHeaders({
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message.replaceAll('"', "'")}"`,
  });

/**
 * restCallerOf maps the principal to the caller: a user (or an account's API key); anon → 401 PGRST302; a bad token → 401 PGRST301
 * (PGRST303 when expired); the service key → 403 42501 until its data-API role is decided (protocol §5).
 */
export function restCallerOf(principal: Principal, tableName: string): RestCaller {
  switch (principal.kind) {
    case 'user':
    case 'apiKey':
      // An account's API key grants that account's access (DESIGN.md "APIs"), here as on /api/table.
      return { accountId: principal.accountId };
    case 'anonymous':
      throw new RestQueryError(401, 'PGRST302', 'Anonymous access is disabled').withHeaders({
        'WWW-Authenticate': 'Bearer',
      });
    case 'invalid':
      throw principal.reason === 'expired'
        ? invalidToken('PGRST303', principal.message)
        : invalidToken('PGRST301', principal.message);
    case 'service':
      throw new RestQueryError(403, '42501', `permission denied for table ${tableName}`);
  }
}
