// The event an app change publishes on the bus (db/bus): every node forgets what it cached of the app (its keys,
// settings, app-lookup.ts), so rolled keys are refused at once everywhere.

/** AppChanged names an app whose keys or settings changed, or which went with its account. */
export interface AppChanged {
  accountId: string;
  ref: string | null;
  kind: 'keys' | 'settings' | 'deleted';
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'app.changed': AppChanged;
  }
}
