import fs from 'node:fs/promises';
import path from 'node:path';
import {
  BACKUP_LIMITS,
  type BackupSchedule,
  type BackupScheduleInput,
  backupScheduleInputSchema,
} from '@basalt/shared';
import { Cron } from 'croner';
import { backupDirOf } from '../../config.js';
import { invalid } from '../../http/errors.js';
import { parseInput } from '../../http/validation.js';
import type { Actor } from '../../lib/actor/actor.js';
import type { BackupDeps } from './backup-deps.js';
import { requireAdmin } from './backups.service.js';
import { claimSetting, deleteBackupRow, listScheduledBackups, readSetting, writeSetting } from './backups.store.js';

// The backup schedule (a cron expression, read by croner; default daily at 03:00 in the server's time zone,
// keeping the last 7 scheduled backups). Every node runs the same timer; at each run the first node to claim
// that run's time in backup_settings takes it, the others step aside, so one backup is taken per run however
// many nodes there are.

declare module '../../db/bus/event-bus.js' {
  interface BusEvents {
    /** The schedule was changed: every node reads it again. */
    'backups.schedule': Record<string, never>;
  }
}

/** ScheduleSettings is the schedule as stored. */
export interface ScheduleSettings {
  enabled: boolean;
  cron: string;
  keep: number;
}

const SCHEDULE_KEY = 'schedule';
const LAST_RUN_KEY = 'last_scheduled_run';

/** DEFAULT_SCHEDULE is the schedule of a new instance. */
export const DEFAULT_SCHEDULE: ScheduleSettings = {
  enabled: true,
  cron: BACKUP_LIMITS.defaultCron,
  keep: BACKUP_LIMITS.defaultKeep,
};

/** cronProblem says why croner refuses an expression, or null when it reads it. */
export function cronProblem(cron: string): string | null {
  try {
    new Cron(cron, { paused: true, mode: '5-or-6-parts' }).stop();
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
    return `Schedule is not a valid cron expression (${message})`;
  }
}

function nextRunOf(settings: ScheduleSettings): string | null {
  if (!settings.enabled) return null;
  const cron = new Cron(settings.cron, { paused: true, mode: '5-or-6-parts' });
  const next = cron.nextRun();
  cron.stop();
  return next ? next.toISOString() : null;
}

/** readSchedule reads the stored schedule, or the default. */
export async function readSchedule(deps: Pick<BackupDeps, 'db'>): Promise<ScheduleSettings> {
  const text = await readSetting(deps.db.kysely, SCHEDULE_KEY);
  if (!text) return { ...DEFAULT_SCHEDULE };
  try {
    const parsed = backupScheduleInputSchema.safeParse(JSON.parse(text));
    if (parsed.success && cronProblem(parsed.data.cron) === null) return parsed.data;
  } catch {
    // An unreadable value (written by hand) is the default.
  }
  return { ...DEFAULT_SCHEDULE };
}

/** getSchedule answers GET /api/backups/schedule. */
export async function getSchedule(deps: BackupDeps, actor: Actor): Promise<BackupSchedule> {
  requireAdmin(actor);
  const settings = await readSchedule(deps);
  return { ...settings, nextRunAt: nextRunOf(settings) };
}

/** putSchedule changes the schedule (PUT /api/backups/schedule); every node follows it at once. */
export async function putSchedule(deps: BackupDeps, actor: Actor, input: unknown): Promise<BackupSchedule> {
  requireAdmin(actor);
  const settings: ScheduleSettings = parseInput(backupScheduleInputSchema, input) satisfies BackupScheduleInput;
  const problem = cronProblem(settings.cron);
  if (problem) throw invalid({ cron: [problem] });
  await writeSetting(deps.db.kysely, SCHEDULE_KEY, JSON.stringify(settings));
  deps.db.publish('backups.schedule', {});
  return { ...settings, nextRunAt: nextRunOf(settings) };
}

/** pruneScheduled deletes the scheduled backups beyond the newest `keep` (manual ones are kept until deleted). */
export async function pruneScheduled(deps: BackupDeps, keep: number): Promise<number> {
  const extra = (await listScheduledBackups(deps.db.kysely)).slice(keep);
  for (const row of extra) {
    if (row.file_path) await fs.rm(path.join(backupDirOf(deps.config), row.file_path), { force: true });
    await deleteBackupRow(deps.db.kysely, row.id);
  }
  return extra.length;
}

/** claimRun takes one scheduled run (its time) for this node; false when another node took it. */
export async function claimRun(deps: BackupDeps, runAt: string): Promise<boolean> {
  const last = await readSetting(deps.db.kysely, LAST_RUN_KEY);
  if (last !== null && last >= runAt) return false;
  return claimSetting(deps.db.kysely, LAST_RUN_KEY, last, runAt);
}

/**
 * startSchedule runs the schedule on this node: `run` is called with each run's time, and the timer follows
 * every change of the schedule. It returns the function that stops it.
 */
export function startSchedule(deps: BackupDeps, run: (runAt: Date, settings: ScheduleSettings) => Promise<void>) {
  let job: Cron | null = null;
  let stopped = false;
  const plan = async () => {
    const settings = await readSchedule(deps);
    job?.stop();
    job = null;
    if (stopped || !settings.enabled) return;
    job = new Cron(settings.cron, { mode: '5-or-6-parts', unref: true, protect: true, catch: true }, async (self) => {
      await run(self.currentRun() ?? new Date(), settings);
    });
  };
  const replan = () => {
    plan().catch((error: unknown) => deps.log.error(`Could not read the backup schedule: ${String(error)}`));
  };
  const unsubscribe = deps.db.bus.subscribe('backups.schedule', replan);
  replan();
  return () => {
    stopped = true;
    unsubscribe();
    job?.stop();
  };
}
