import type { FastifyInstance } from 'fastify';
import { randomToken } from '../lib/crypto/tokens.js';
import { CSRF_COOKIE, cookiesOf } from './principal.js';

/** csrfRoutes serves GET /api/csrf-token: the double-submit token the console sends as X-CSRF-Token. */
export async function csrfRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/csrf-token', async (request, reply) => {
    const existing = cookiesOf(request)[CSRF_COOKIE];
    const csrfToken = existing && /^[A-Za-z0-9_-]{32,}$/.test(existing) ? existing : randomToken(32);
    if (csrfToken !== existing) {
      reply.setCookie(CSRF_COOKIE, csrfToken, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
      });
    }
    reply.header('Cache-Control', 'no-store');
    return { csrfToken };
  });
}
