import { DEFAULT_INSTANCE_SETTINGS, type InstanceSettings, instanceSettingsPatchSchema } from '@basalt/shared';
import type { Db } from '../../db/database.js';
import { readSetting, writeSetting } from '../../db/instance-settings.store.js';
import { forbidden } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import { busCache } from '../../lib/cache/bus-cache.js';
import { recordActivity } from '../activity/activity.service.js';

// The settings an administrator changes for the whole instance (console sign-ups, the terms URL), stored in
// instance_settings and read on every sign-up and every console start: each node keeps them in a bus cache that
// `instance.changed` refreshes everywhere at once.

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'instance.changed': Record<string, never>;
  }
}

const KEY = 'console_settings';
const ONLY = 'settings';

/** InstanceSettingsService reads (cached) and changes the instance's settings. */
export interface InstanceSettingsService {
  get(): InstanceSettings | Promise<InstanceSettings>;
  /** update applies an administrator's patch; another account is refused with 403. */
  update(actor: Actor, input: unknown): Promise<InstanceSettings>;
}

/** parseStored reads what is stored over the defaults; a malformed value counts as not set. */
function parseStored(text: string | null): InstanceSettings {
  const settings = { ...DEFAULT_INSTANCE_SETTINGS };
  if (!text) return settings;
  try {
    const stored = JSON.parse(text) as Partial<InstanceSettings>;
    if (typeof stored.signupsAllowed === 'boolean') settings.signupsAllowed = stored.signupsAllowed;
    if (typeof stored.termsUrl === 'string' || stored.termsUrl === null) settings.termsUrl = stored.termsUrl ?? null;
  } catch {
    // Written only by update below; keep the defaults rather than fail every sign-up.
  }
  return settings;
}

/**
 * writeInstanceSettings applies a validated patch in the scope's transaction and tells every node; returns the
 * settings. The command line uses it too (no actor there: whoever runs it runs the instance).
 */
export async function writeInstanceSettings(db: Db, patch: Partial<InstanceSettings>): Promise<InstanceSettings> {
  return db.transaction(async (scope) => {
    const next = { ...parseStored(await readSetting(scope.kysely, KEY)), ...patch };
    await writeSetting(scope.kysely, KEY, JSON.stringify(next));
    scope.publish('instance.changed', {});
    return next;
  });
}

/** instanceSettingsOf makes this process's instance settings over one open database. */
export function instanceSettingsOf(db: Db): InstanceSettingsService {
  const cache = busCache(db, {
    load: async () => parseStored(await readSetting(db.kysely, KEY)),
    invalidatedBy: { 'instance.changed': () => 'all' },
    ttlMs: 60_000,
    maxEntries: 1,
  });
  return {
    get: () => cache.get(ONLY),
    async update(actor, input) {
      if (!actor.admin) throw forbidden('Only an administrator can change the instance settings', 'not_admin');
      const patch = parseInput(instanceSettingsPatchSchema, input);
      return db.transaction(async (scope) => {
        const next = await writeInstanceSettings(scope, patch);
        await recordActivity(
          scope.kysely,
          { accountId: actor.accountId, action: 'UPDATE', resource: 'instance', details: { ...patch } },
          new Date(),
        );
        return next;
      });
    },
  };
}
