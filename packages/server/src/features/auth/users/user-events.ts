// The event creating an app's end user publishes on the bus (db/bus), heard by the achievements
// (features/achievements: "First end user"). Console accounts publish none.

/** AppUserCreated names the account whose app gained an end user (anonymous ones too). */
export interface AppUserCreated {
  accountId: string;
}

declare module '../../../db/bus/event-bus.js' {
  interface BusEvents {
    'app-user.created': AppUserCreated;
  }
}
