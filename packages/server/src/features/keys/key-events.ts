// The event that deleting an API key publishes on the bus (db/bus): every node forgets the key at once
// (keys.lookup.ts), so it stops working everywhere.

/** KeyRevoked names a deleted key by its secret's sha256 (the secret itself never leaves the request). */
export interface KeyRevoked {
  accountId: string;
  keyHash: string;
}

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    'key.revoked': KeyRevoked;
  }
}
