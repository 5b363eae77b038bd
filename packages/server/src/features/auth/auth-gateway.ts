import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenService } from './tokens.service.js';

// Paths a browser opens without headers, and public metadata (protocol §1.3).
const EXEMPT = /^\/auth\/v1\/(callback|authorize|health|\.well-known\/.*)\/?$/;
const VERIFY_LINK = /^\/auth\/v1\/verify\/?$/;

/** apiKeyOf reads the `apikey` header, else the `apikey` query parameter (old clients, links). */
export function apiKeyOf(request: FastifyRequest): string | null {
  const header = request.headers.apikey;
  if (typeof header === 'string' && header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const param = query?.apikey;
  return typeof param === 'string' && param ? param : null;
}

async function isInstanceKey(tokens: TokenService, key: string): Promise<boolean> {
  if (tokens.roleOfKey(key)) return true;
  try {
    const { role } = await tokens.verify(key);
    return role === 'anon' || role === 'service_role';
  } catch {
    return false;
  }
}

/**
 * apiKeyGateway is the onRequest hook in front of /auth/v1, mirroring Supabase's gateway: 401
 * `{"message":"No API key found in request"}` without a key, `{"message":"Invalid API key"}` for anything
 * but this instance's anon or service key (or another key JWT it signed).
 */
export function apiKeyGateway(tokens: TokenService) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/auth/v1/')) return;
    if (EXEMPT.test(path) || (request.method === 'GET' && VERIFY_LINK.test(path))) return;
    const key = apiKeyOf(request);
    if (!key) return reply.code(401).send({ message: 'No API key found in request' });
    if (!(await isInstanceKey(tokens, key))) return reply.code(401).send({ message: 'Invalid API key' });
  };
}
