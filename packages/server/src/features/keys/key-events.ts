// The events of API keys on the bus (db/bus): deleting one makes every node forget it at once (keys.lookup.ts), so
// it stops working everywhere; making one is heard by the achievements (features/achievements).

/** KeyRevoked names a deleted key by its secret's sha256 (the secret itself never leaves the request). */
export interface KeyRevoked {
  accountId: string;
  keyHash: string;
}

/** KeyCreated names the account that made a key. */
export interface KeyCreated {
  accountId: string;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'key.revoked': KeyRevoked;
    'key.created': KeyCreated;
  }
}
