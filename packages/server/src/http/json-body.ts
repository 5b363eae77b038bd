import type { FastifyInstance } from 'fastify';
import { nulInJsonBody } from './nul-guard.js';

/**
 * installJsonBodyParser reads `application/json` bodies with Fastify's own prototype-safe parser, except that an
 * empty body reads as no body: supabase-js sends the header on DELETE and on POST /logout without a body, and so
 * do many HTTP clients. Routes that need a body say so themselves; malformed JSON still fails, and the error
 * handler answers it in the route family's shape, as it does text with a NUL character (http/nul-guard.ts).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const jsonParser = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    jsonParser(request, text, (error, value) => {
      if (error) return done(error);
      const refused = nulInJsonBody(request, text, value);
      return refused ? done(refused) : done(null, value);
    });
  });
}
