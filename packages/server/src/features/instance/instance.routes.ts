import type { Callers } from '../../http/caller.js';
import { forbidden } from '../../http/errors.js';
import type { Route } from '../../http/routes/route.js';
import type { InstanceSettingsService } from './instance-settings.js';

// The instance's settings, administrators only (docs/operations.md):
//   GET   /api/admin/instance   {signupsAllowed, termsUrl}
//   PATCH /api/admin/instance   {signupsAllowed?, termsUrl?} → the settings

/** instanceRoutes are the instance settings' routes. */
export function instanceRoutes({
  callers,
  instance,
}: {
  callers: Callers;
  instance: InstanceSettingsService;
}): Route[] {
  return [
    {
      method: 'GET',
      url: '/api/admin/instance',
      family: 'console',
      admit: [callers.user],
      handler: (call) => {
        if (!call.actor.admin) throw forbidden('Only an administrator can see the instance settings', 'not_admin');
        return instance.get();
      },
    },
    {
      method: 'PATCH',
      url: '/api/admin/instance',
      family: 'console',
      admit: [callers.user],
      handler: (call) => instance.update(call.actor, call.body),
    },
  ];
}
