// The events of accounts themselves, which every feature's caches hear: an account's facts changed (it became or
// stopped being an administrator), or the account was deleted with everything it owned. Each cache forgets the
// account's entries by its tag (`accountTag`), so that deleting an account names no other feature's topic.

/** AccountChanged names an account whose facts (administrator or not) changed. */
export interface AccountChanged {
  accountId: string;
}

/** AccountDeleted names an account deleted with everything it owned. */
export interface AccountDeleted {
  accountId: string;
}

declare module './event-bus.js' {
  interface BusEvents {
    'account.changed': AccountChanged;
    'account.deleted': AccountDeleted;
  }
}

/** accountTag is the cache tag of an account's entries (lib/cache/bus-cache.ts). */
export const accountTag = (accountId: string) => `account:${accountId}`;
