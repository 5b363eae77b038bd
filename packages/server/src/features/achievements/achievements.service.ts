import type { Db } from '../../db/database.js';
import type { Actor } from '../../lib/actor/actor.js';

// Onboarding milestones. Each is read from the rows its action writes, in that action's own transaction, so a
// milestone is reached the moment the action commits, on every node, with nothing held in memory and nothing
// polled: the earliest such row's time is when it was reached.

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

const MILESTONES: Milestone[] = [
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

/** listAchievements answers the actor's account's milestones in their order, with progress. */
export async function listAchievements(db: Db, actor: Actor): Promise<Achievement[]> {
  return Promise.all(
    MILESTONES.map(async (m, order) => {
      const times = await m.times(db, actor.accountId, m.target);
      const progress = Math.min(times.length, m.target);
      const status: AchievementStatus = progress >= m.target ? 'COMPLETED' : progress > 0 ? 'IN_PROGRESS' : 'LOCKED';
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
        completedAt: status === 'COMPLETED' ? (times[m.target - 1] ?? null) : null,
      };
    }),
  );
}
