// The event a committed change of an account's secrets publishes on the bus (db/bus): every node restarts that
// account's function processes on their next call, so they read the new environment (features/functions/runtime).

/** SecretsChanged names the account whose secrets changed (never a name or a value). */
export interface SecretsChanged {
  accountId: string;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'secrets.changed': SecretsChanged;
  }
}
