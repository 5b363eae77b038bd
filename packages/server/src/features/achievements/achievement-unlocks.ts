import type { BusOrigin } from '../../db/bus/event-bus.js';
import type { Db } from '../../db/database.js';
import { busCache } from '../../lib/cache/bus-cache.js';
import type { Job } from '../../lib/jobs/job.js';
import { reachMilestones } from './achievements.service.js';
import { unlocksOf } from './achievements.store.js';

// Milestones reached as their actions happen: each action's event on the bus names the milestones it may reach,
// and the node that published it (only that one: every node hears every event) checks them and keeps those
// reached. Which milestones an account has reached is cached per node, so the hot events (every record write
// publishes one) cost a lookup once the milestone is reached; another node's cache may lag, which only costs it
// one check whose insert changes nothing.

const MAX_ACCOUNTS = 10_000;
const TTL_MS = 10 * 60_000;

/** achievementUnlocks is the job that listens for the milestones' events while the server runs. */
export function achievementUnlocks(db: Db, onError: (error: unknown) => void): Job {
  return {
    name: 'achievement unlocks',
    start() {
      const reached = busCache(db, {
        load: async (accountId) => new Set((await unlocksOf(db, accountId)).keys()),
        invalidatedBy: { 'account.deleted': ({ accountId }) => ({ keys: [accountId] }) },
        ttlMs: TTL_MS,
        maxEntries: MAX_ACCOUNTS,
      });
      const pending = new Set<Promise<void>>();
      // One check at a time per account and milestones: a burst of writes starts one, and an event that comes
      // while it runs asks for one more round after it (the running one may have read the rows before it).
      const running = new Map<string, { again: boolean }>();
      const check = async (accountId: string, ids: readonly string[]) => {
        const known = await reached.get(accountId);
        const open = ids.filter((id) => !known.has(id));
        if (open.length === 0) return;
        for (const id of await reachMilestones(db, accountId, open)) known.add(id);
      };
      const reach = (origin: BusOrigin, accountId: string, ids: readonly string[]) => {
        if (!origin.local) return;
        // Past this point nothing is awaited by the publisher: the check runs after the action has answered.
        const known = reached.peek(accountId);
        if (known && ids.every((id) => known.has(id))) return;
        const key = `${accountId} ${ids.join(',')}`;
        const current = running.get(key);
        if (current) {
          current.again = true;
          return;
        }
        const state = { again: false };
        running.set(key, state);
        const run = (async () => {
          do {
            state.again = false;
            await check(accountId, ids);
          } while (state.again);
        })()
          .catch(onError)
          .finally(() => {
            running.delete(key);
            pending.delete(run);
          });
        pending.add(run);
      };
      const stops = [
        db.bus.subscribe('table.changed', (e, origin) => {
          if (e.kind === 'created') reach(origin, e.accountId, ['first-table', 'five-tables']);
        }),
        db.bus.subscribe('records.changed', (e, origin) => {
          if (e.changes.some((c) => c.type === 'INSERT')) reach(origin, e.accountId, ['first-record']);
        }),
        db.bus.subscribe('key.created', (e, origin) => reach(origin, e.accountId, ['first-api-key'])),
        db.bus.subscribe('app-user.created', (e, origin) => reach(origin, e.accountId, ['first-end-user'])),
        db.bus.subscribe('function.changed', (e, origin) => reach(origin, e.accountId, ['first-function'])),
        db.bus.subscribe('checkpoint.created', (e, origin) => reach(origin, e.accountId, ['first-checkpoint'])),
      ];
      return async () => {
        for (const stop of stops) stop();
        await Promise.all(pending);
      };
    },
  };
}
