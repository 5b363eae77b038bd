import type { Callers } from '../../http/caller.js';
import type { Route } from '../../http/routes/route.js';
import { getApp, rollAppKeys, updateApp } from './apps.service.js';
import type { Apps } from './apps-config.js';

// The app of the signed-in account:
//   GET   /api/app             {ref, url, anonKey, serviceKey, settings}
//   POST  /api/app/roll-keys   new keys; the old ones are refused at once on every node
//   PATCH /api/app             {settings: {signupsAllowed?, emailConfirmation?, siteUrl?, redirectUrls?,
//                              accessTokenLifetime?}} → the app

/** appsRoutes are the app's routes. */
export function appsRoutes({ apps, callers }: { apps: Apps; callers: Callers }): Route[] {
  const user = { family: 'console', admit: [callers.user] } as const;
  return [
    { ...user, method: 'GET', url: '/api/app', handler: (call) => getApp(apps, call.actor) },
    { ...user, method: 'POST', url: '/api/app/roll-keys', handler: (call) => rollAppKeys(apps, call.actor) },
    { ...user, method: 'PATCH', url: '/api/app', handler: (call) => updateApp(apps, call.actor, call.body) },
  ];
}
