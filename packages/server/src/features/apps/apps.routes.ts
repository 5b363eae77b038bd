import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { requireUser } from '../../http/legacy-principal.js';
import { getApp, rollAppKeys, updateApp } from './apps.service.js';

// The app of the signed-in account (issue "Apps with their own users"):
//   GET   /api/app             {ref, url, anonKey, serviceKey, settings}
//   POST  /api/app/roll-keys   new keys; the old ones are refused at once on every node
//   PATCH /api/app             {settings: {signupsAllowed?, emailConfirmation?, siteUrl?, redirectUrls?,
//                              accessTokenLifetime?}} → the app

/** appsRoutes registers the app endpoints. */
export async function appsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { db } = ctx;
  app.get('/api/app', async (request) => getApp(db, requireUser(request)));
  app.post('/api/app/roll-keys', async (request) => rollAppKeys(db, requireUser(request)));
  app.patch('/api/app', async (request) => updateApp(db, requireUser(request), request.body));
}
