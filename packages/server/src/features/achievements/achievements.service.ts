import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';
import { insertUnlock, unlocksOf } from './achievements.store.js';

// Onboarding milestones. Each is read from the rows its action writes: when the action's event comes over the bus
// (achievement-unlocks.ts), the milestones it may reach are checked and a reached one is kept in user_achievements
// with the time of the row that reached it, once per account (a second node's insert changes nothing). A kept
// milestone stays reached whatever happens to those rows afterwards. Listing them checks the rest once more, for a
// milestone whose event went missing.

export type AchievementStatus = 'LOCKED' | 'IN_PROGRESS' | 'COMPLETED';

export interface Achievement {
  id: string;
  name: string;
  description: string;
  icon: string;
  points: number;
  category: string;
  order: number;
  /** How many of the action are needed, and how many there are (capped at the target). */
  target: number;
  progress: number;
  status: AchievementStatus;
  completedAt: string | null;
}

interface Milestone {
  id: string;
  name: string;
  description: string;
  icon: string;
  category: string;
  target: number;
  /** The times the account did the action, earliest first, at most `target` of them. */
  times(db: Db, accountId: string, limit: number): Promise<string[]>;
}

const earliest = async (query: Promise<{ created_at: string }[]>) => (await query).map((r) => r.created_at);

// When the account's first `limit` tables were made: the first-table and five-tables milestones both read it.
const tablesCreated: Milestone['times'] = (db, id, limit) =>
  earliest(
    db.kysely
      .selectFrom('user_tables')
      .select('created_at')
      .where('account_id', '=', id)
      .orderBy('created_at')
      .limit(limit)
      .execute(),
  );

/** MILESTONES are the milestones, in their order on the Profile page. */
export const MILESTONES: Milestone[] = [
  {
    id: 'first-table',
    name: 'First table',
    description: 'Create your first table.',
    icon: 'table',
    category: 'database',
    target: 1,
    times: tablesCreated,
  },
  {
    id: 'first-record',
    name: 'First record',
    description: 'Add a record to one of your tables.',
    icon: 'file-plus',
    category: 'database',
    target: 1,
    times: (db, id, limit) =>
      earliest(
        db.kysely
          .selectFrom('change_history')
          .select('created_at')
          .where('account_id', '=', id)
          .where('change_type', '=', 'RECORD_CREATE')
          .orderBy('created_at')
          .limit(limit)
          .execute(),
      ),
  },
  {
    id: 'first-api-key',
    name: 'First API key',
    description: 'Create an API key to reach your data from code.',
    icon: 'key',
    category: 'api',
    target: 1,
    times: (db, id, limit) =>
      earliest(
        db.kysely
          .selectFrom('api_keys')
          .select('created_at')
          .where('account_id', '=', id)
          .orderBy('created_at')
          .limit(limit)
          .execute(),
      ),
  },
  {
    id: 'first-end-user',
    name: 'First end user',
    description: 'Have a user sign up to your app.',
    icon: 'user-plus',
    category: 'auth',
    target: 1,
    times: (db, id, limit) =>
      earliest(
        db.kysely
          .selectFrom('app_users')
          .select('created_at')
          .where('app_id', '=', id)
          .orderBy('created_at')
          .limit(limit)
          .execute(),
      ),
  },
  {
    id: 'first-function',
    name: 'First function',
    description: 'Deploy your first edge function.',
    icon: 'code',
    category: 'functions',
    target: 1,
    times: (db, id, limit) =>
      earliest(
        db.kysely
          .selectFrom('edge_functions')
          .select('created_at')
          .where('account_id', '=', id)
          .orderBy('created_at')
          .limit(limit)
          .execute(),
      ),
  },
  {
    id: 'first-checkpoint',
    name: 'First checkpoint',
    description: 'Save a checkpoint of a table you can return to.',
    icon: 'flag',
    category: 'history',
    target: 1,
    times: (db, id, limit) =>
      earliest(
        db.kysely
          .selectFrom('checkpoints')
          .select('created_at')
          .where('account_id', '=', id)
          .orderBy('created_at')
          .limit(limit)
          .execute(),
      ),
  },
  {
    id: 'five-tables',
    name: 'Five tables',
    description: 'Model your data in five tables.',
    icon: 'database',
    category: 'database',
    target: 5,
    times: tablesCreated,
  },
];

/**
 * reachMilestones checks the named milestones an account has not reached yet and keeps the reached ones; it
 * answers the ids it found reached.
 */
export async function reachMilestones(db: Db, accountId: string, ids: readonly string[]): Promise<string[]> {
  const reached: string[] = [];
  for (const m of MILESTONES) {
    if (!ids.includes(m.id)) continue;
    const times = await m.times(db, accountId, m.target);
    const at = times.length >= m.target ? times[m.target - 1] : undefined;
    if (at === undefined) continue;
    await insertUnlock(db, accountId, m.id, at);
    reached.push(m.id);
  }
  return reached;
}

/** listAchievements answers the actor's account's milestones in their order, with progress and when reached. */
export async function listAchievements(db: Db, actor: Actor): Promise<Achievement[]> {
  let unlocked = await unlocksOf(db, actor.accountId);
  const open = MILESTONES.filter((m) => !unlocked.has(m.id)).map((m) => m.id);
  if (open.length > 0 && (await reachMilestones(db, actor.accountId, open)).length > 0) {
    unlocked = await unlocksOf(db, actor.accountId);
  }
  return Promise.all(
    MILESTONES.map(async (m, order) => {
      const unlockedAt = unlocked.get(m.id) ?? null;
      const progress = unlockedAt
        ? m.target
        : Math.min((await m.times(db, actor.accountId, m.target)).length, m.target);
      const status: AchievementStatus = unlockedAt ? 'COMPLETED' : progress > 0 ? 'IN_PROGRESS' : 'LOCKED';
      return {
        id: m.id,
        name: m.name,
        description: m.description,
        icon: m.icon,
        points: 10,
        category: m.category,
        order,
        target: m.target,
        progress,
        status,
        completedAt: unlockedAt,
      };
    }),
  );
}
