// The event that ending sessions publishes on the bus (db/bus): every node drops what it knows of the account's
// sessions (session-liveness.ts), so their access tokens are refused at once everywhere.

/** SessionsEnded names the account some of whose sessions ended (sign-out, password change, ban, deletion). */
export interface SessionsEnded {
  accountId: string;
}

/**
 * EndUserSessionsEnded names an end user of an app some of whose sessions ended, or nobody (null) when every
 * session of an app ended at once (the app went with its account).
 */
export interface EndUserSessionsEnded {
  userId: string | null;
}

/** FactorsChanged names a user whose MFA factors were verified or removed (`ref`: the app, null: console). */
export interface FactorsChanged {
  userId: string;
  ref: string | null;
}

declare module '../../../db/bus/event-bus.js' {
  interface BusEvents {
    'sessions.ended': SessionsEnded;
    'app-sessions.ended': EndUserSessionsEnded;
    'factors.changed': FactorsChanged;
  }
}
