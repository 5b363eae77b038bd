import type { FastifyInstance } from 'fastify';
import { isApiPath } from './api-headers.js';
import { errorFamilyOf, formatError } from './error-family.js';
import { notFound } from './errors.js';

/**
 * installNotFound answers a request no route takes: a console page loads the console (every console route works
 * on reload); an API path answers its family's 404.
 */
export function installNotFound(app: FastifyInstance, indexHtml: string | null): void {
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url);
    if (isPage && indexHtml) {
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    }
    const family = errorFamilyOf(request);
    const path = request.url.split('?')[0];
    const error =
      family === 'rest'
        ? notFound(`Could not find the table '${path?.slice('/rest/v1/'.length)}' in the schema cache`, 'PGRST205')
        : notFound(
            `No route for ${request.method} ${path}`,
            family === 'auth' || family === 'storage' ? 'not_found' : 'route_not_found',
          );
    return reply.status(404).send(formatError(family, error));
  });
}
