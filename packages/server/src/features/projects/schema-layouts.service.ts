import {
  blankLayout,
  deletedElementIds,
  type LayoutElement,
  mergeLayoutElements,
  PROJECT_LIMITS,
  type SchemaLayout,
  type StoredLayout,
  schemaLayoutSchema,
  type UpdateTimestamp,
} from '@basalt/shared';
import type { z } from 'zod';
import type { Db } from '../../db/database.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import { fieldErrorsOf } from '../../http/validation.js';
import { type Actor, actorIdOf } from '../../lib/actor/actor.js';
import { memberProject } from './projects.service.js';
import {
  deleteLayoutVersionsBefore,
  findLayoutRow,
  findLayoutVersions,
  insertLayoutVersion,
  lockLayoutRow,
  updateLayoutRow,
} from './schema-layouts.store.js';

// A project's Schema Editor layout. Every
// update, from the /ws room or the HTTP fallback, is merged three ways (shared schema-layout-merge.ts) against
// the version it was based on, inside one transaction that holds the layout's row, so nodes on one PostgreSQL
// merge one after another and never lose an edit. The room hands several updates that arrived together to one
// call (one transaction, one new version). Each version is kept a while as the base of late updates; the ids of
// deleted elements are kept too, so that an update based on a forgotten version cannot bring one back.

/** KEPT_VERSIONS is how many recent versions are kept as bases; an older base merges as "unknown". */
export const KEPT_VERSIONS = 500;
// Versions are pruned every PRUNE_EVERY versions, not on each update.
const PRUNE_EVERY = 50;
// Deleted element ids kept, newest last.
const KEPT_DELETED_IDS = 5_000;
// A layout this small travels in the bus event itself; a larger one is read from the database by each node.
const INLINE_EVENT_BYTES = 7_200;

/** LayoutUpdate is one editor's update: its elements, the version they were based on, and who sent it. */
export interface LayoutUpdate {
  actor: Actor;
  elements: LayoutElement[];
  version: number;
  timestamp: UpdateTimestamp | null;
}

/** MergeOutcome is a merge's result: the layout now, and the updates refused (by their index) with why. */
export interface MergeOutcome {
  layout: StoredLayout;
  refused: Map<number, ApiError>;
}

const noLayout = () => notFound('No schema layout has been saved for this project yet', 'layout_not_found');

/** layoutTooLarge is the 413 of a layout over PROJECT_LIMITS.layoutMaxBytes. */
export const layoutTooLarge = () =>
  new ApiError(
    413,
    'layout_too_large',
    `The layout is larger than the ${PROJECT_LIMITS.layoutMaxBytes / 1024} KiB a project's layout may be.`,
  );

/** invalidLayout is the 400 of a malformed layout: its message starts with the path of the first bad field. */
export function invalidLayout(error: z.ZodError, prefix = 'layout'): ApiError {
  const fieldErrors: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(fieldErrorsOf(error))) {
    fieldErrors[path ? `${prefix}.${path}` : prefix] = messages;
  }
  const [path, messages] = Object.entries(fieldErrors)[0] ?? [prefix, ['Invalid layout']];
  return new ApiError(400, 'invalid_layout', `${path}: ${messages?.[0] ?? 'Invalid layout'}`, { fieldErrors });
}

/** parseLayout checks a layout's size (413) and shape (400 naming the bad field's path). */
export function parseLayout(input: unknown): SchemaLayout {
  if (input === undefined || input === null) {
    throw badRequest('invalid_layout', 'layout: layout is required', {
      fieldErrors: { layout: ['layout is required'] },
    });
  }
  if (Buffer.byteLength(JSON.stringify(input) ?? '') > PROJECT_LIMITS.layoutMaxBytes) throw layoutTooLarge();
  const parsed = schemaLayoutSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw invalidLayout(parsed.error);
  return parsed.data;
}

function storedOf(elementsJson: string, version: number, updatedAt: string | null): StoredLayout {
  return { elements: JSON.parse(elementsJson) as LayoutElement[], version, lastModified: updatedAt };
}

/** readLayout reads a project's current layout (no membership check), or null when it has none. */
export async function readLayout(db: Db, projectId: string): Promise<StoredLayout | null> {
  const row = await findLayoutRow(db.kysely, projectId);
  if (!row || row.version === 0) return null;
  return storedOf(row.layout, row.version, row.updated_at);
}

/** getLayout returns one of the actor's projects' layout; 404 when none was saved yet (the editor starts blank). */
export async function getLayout(db: Db, actor: Actor, projectId: string): Promise<{ layout: StoredLayout }> {
  await memberProject(db, actor, projectId);
  const layout = await readLayout(db, projectId);
  if (!layout) throw noLayout();
  return { layout };
}

/** saveLayout merges a layout sent over HTTP (the editor's fallback while disconnected) and returns the result. */
export async function saveLayout(
  db: Db,
  actor: Actor,
  projectId: string,
  body: unknown,
): Promise<{ layout: StoredLayout }> {
  await memberProject(db, actor, projectId, 'schema.write');
  const raw = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { layout?: unknown }) : {};
  const layout = parseLayout(raw.layout);
  const outcome = await mergeLayoutUpdates(db, projectId, [
    { actor, elements: layout.elements, version: layout.version, timestamp: null },
  ]);
  const refusal = outcome.refused.get(0);
  if (refusal) throw refusal;
  return { layout: outcome.layout };
}

/**
 * mergeLayoutUpdates merges updates, in order, into a project's layout in one transaction and stores the result
 * as the next version; `schema.layout` goes on the bus once committed. An update whose merge would pass the
 * limits is refused (413) and the others still apply. Callers have checked each actor's role. `room` names the
 * node's rooms that merged it (they answer their own sockets; every other room sends the event's layout).
 */
export async function mergeLayoutUpdates(
  db: Db,
  projectId: string,
  updates: LayoutUpdate[],
  options: { room?: string } = {},
): Promise<MergeOutcome> {
  const refused = new Map<number, ApiError>();
  const versions = versionCacheOf(db);
  return db.transaction(async (scope) => {
    const now = new Date().toISOString();
    // The live layout is state every editor re-sends: its commits do not wait for the disk (PostgreSQL).
    await db.dialect.commitWithoutWaitingForDisk(scope.kysely);
    const row = await lockLayoutRow(scope.kysely, projectId, actorIdOf(updates[0]?.actor ?? { accountId: '' }), now);
    const start = JSON.parse(row.layout) as LayoutElement[];
    const deleted = new Set(JSON.parse(row.deleted_ids) as string[]);
    const bases = new Map<number, LayoutElement[] | null>([
      [row.version, start],
      [0, []],
    ]);
    const wanted = [...new Set(updates.map((u) => u.version))].filter((v) => !bases.has(v) && v < row.version);
    const missing: number[] = [];
    for (const version of wanted) {
      const cached = versions.get(projectId, version);
      if (cached) bases.set(version, cached);
      else missing.push(version);
    }
    for (const [version, json] of await findLayoutVersions(scope.kysely, projectId, missing)) {
      bases.set(version, JSON.parse(json) as LayoutElement[]);
    }
    let current = start;
    let json = row.layout;
    const applied: LayoutUpdate[] = [];
    for (const [index, update] of updates.entries()) {
      const merged = mergeLayoutElements({
        base: bases.get(update.version) ?? null,
        mine: update.elements,
        theirs: current,
        deleted,
      });
      const text = JSON.stringify(merged);
      if (merged.length > PROJECT_LIMITS.elementsMax || Buffer.byteLength(text) > PROJECT_LIMITS.layoutMaxBytes) {
        refused.set(index, layoutTooLarge());
        continue;
      }
      for (const id of deletedElementIds(current, merged)) deleted.add(id);
      current = merged;
      json = text;
      applied.push(update);
    }
    if (applied.length === 0) return { layout: storedOf(row.layout, row.version, row.updated_at), refused };
    const version = row.version + 1;
    const deletedIds = JSON.stringify([...deleted].slice(-KEPT_DELETED_IDS));
    await updateLayoutRow(scope.kysely, projectId, { layout: json, version, deletedIds, now });
    await insertLayoutVersion(scope.kysely, projectId, version, json, now);
    if (version % PRUNE_EVERY === 0) await deleteLayoutVersionsBefore(scope.kysely, projectId, version - KEPT_VERSIONS);
    const layout: StoredLayout = { elements: current, version, lastModified: now };
    scope.afterCommit(() => versions.remember(projectId, layout));
    scope.publish('schema.layout', {
      projectId,
      version,
      layout: Buffer.byteLength(json) <= INLINE_EVENT_BYTES ? layout : null,
      updates: applied.map((update) => ({ userId: actorIdOf(update.actor), timestamp: update.timestamp })),
      ...(options.room ? { room: options.room } : {}),
    });
    return { layout, refused };
  });
}

// Versions never change once committed, so each node keeps the latest ones it saw (its own merges and the
// layouts other nodes' events carry) and reads only older bases from the database.
const VERSION_CACHE = Symbol('schema-layout-versions');
const CACHED_VERSIONS = 200;

interface VersionCache {
  get(projectId: string, version: number): LayoutElement[] | undefined;
  remember(projectId: string, layout: StoredLayout): void;
}

/** versionCacheOf is this process's cache of recent layout versions. */
export function versionCacheOf(db: Db): VersionCache {
  return db.state(VERSION_CACHE, (): VersionCache => {
    const byProject = new Map<string, Map<number, LayoutElement[]>>();
    return {
      get: (projectId, version) => byProject.get(projectId)?.get(version),
      remember(projectId, layout) {
        let versions = byProject.get(projectId);
        if (!versions) {
          versions = new Map();
          byProject.set(projectId, versions);
        }
        versions.set(layout.version, layout.elements);
        if (versions.size > CACHED_VERSIONS) {
          const oldest = versions.keys().next().value;
          if (oldest !== undefined) versions.delete(oldest);
        }
        // Bounded by project too: the least recently written project goes first.
        byProject.delete(projectId);
        byProject.set(projectId, versions);
        if (byProject.size > 1_000) {
          const stale = byProject.keys().next().value;
          if (stale !== undefined) byProject.delete(stale);
        }
      },
    };
  });
}

/** blankOr returns a layout, or the blank one of a project that has none. */
export function blankOr(layout: StoredLayout | null): StoredLayout {
  return layout ?? blankLayout();
}
