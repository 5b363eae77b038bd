import { fieldKey, type LayoutElement, type LayoutField } from './schema-layout.schemas.js';

// How two people's edits of one layout come together. An editor
// sends its whole layout with the version it was based on (`base`); meanwhile others may have moved the room on
// (`theirs`, the current layout). The merge is three-way, per element and per attribute, and per field and per
// field attribute: what the editor changed since `base` wins, everything else keeps `theirs`. So two people
// editing different fields of one table keep both, and when both changed the same attribute the later update
// wins. A deletion always wins: an element (or field) deleted by one and moved or edited by another stays
// deleted, and `deleted` (ids the room has deleted, kept by the server) keeps it deleted even when `base` is
// unknown. Without `base` (too old to be kept) every attribute the editor sent wins and nothing the others added
// is lost. Pure: the server merges with it, and the console rebases its unsent edits with it.

/** MergeInput is a three-way merge: the editor's base, the editor's layout, and the room's current one. */
export interface MergeInput {
  /** The elements of the version the editor started from; null when that version is no longer known. */
  base: readonly LayoutElement[] | null;
  mine: readonly LayoutElement[];
  theirs: readonly LayoutElement[];
  /** Element ids deleted in the room, which never come back (the editor may not have heard of the deletion). */
  deleted?: ReadonlySet<string>;
}

/**
 * sameValue compares two JSON values deeply, whatever the order of their keys (a layout read back from the server
 * lists an element's keys in another order than the editor that made it); a key holding undefined is absent.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  if (keys.length !== Object.keys(right).filter((k) => right[k] !== undefined).length) return false;
  return keys.every((k) => sameValue(left[k], right[k]));
}

// One attribute, three ways: the editor's change wins, else the room's value.
function pick<T>(hasBase: boolean, base: T, mine: T, theirs: T, mineHas: boolean): T {
  if (!hasBase) return mineHas ? mine : theirs;
  return sameValue(mine, base) ? theirs : mine;
}

function mergeRecord<T extends object>(base: T | null, mine: T, theirs: T, skip: ReadonlySet<string>): T {
  const out: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(theirs), ...Object.keys(mine), ...(base ? Object.keys(base) : [])]);
  const b = (base ?? {}) as Record<string, unknown>;
  const m = mine as Record<string, unknown>;
  const t = theirs as Record<string, unknown>;
  for (const key of keys) {
    if (skip.has(key)) continue;
    const value = pick(base !== null, b[key], m[key], t[key], Object.hasOwn(m, key));
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

const NO_SKIP: ReadonlySet<string> = new Set();
const ELEMENT_SKIP: ReadonlySet<string> = new Set(['fields']);

/** mergeFields merges one table's fields three ways, field by field and attribute by attribute. */
export function mergeFields(
  base: readonly LayoutField[] | null,
  mine: readonly LayoutField[],
  theirs: readonly LayoutField[],
): LayoutField[] {
  const baseByKey = new Map((base ?? []).map((f) => [fieldKey(f), f]));
  const mineByKey = new Map(mine.map((f) => [fieldKey(f), f]));
  const theirKeys = new Set(theirs.map(fieldKey));
  const out: LayoutField[] = [];
  for (const field of theirs) {
    const key = fieldKey(field);
    const mineField = mineByKey.get(key);
    const baseField = baseByKey.get(key) ?? null;
    if (!mineField) {
      // Absent from mine: deleted by the editor if it knew it, otherwise added by others meanwhile.
      if (base === null || !baseField) out.push(field);
      continue;
    }
    out.push(mergeRecord(base === null ? null : baseField, mineField, field, NO_SKIP));
  }
  for (const field of mine) {
    const key = fieldKey(field);
    if (theirKeys.has(key)) continue;
    // In mine only: new from the editor, unless the others deleted it since the editor's base.
    if (base !== null && baseByKey.has(key)) continue;
    out.push(field);
  }
  return out;
}

function mergeElement(base: LayoutElement | null, hasBase: boolean, mine: LayoutElement, theirs: LayoutElement) {
  const merged = mergeRecord(hasBase ? base : null, mine, theirs, ELEMENT_SKIP);
  merged.fields = mergeFields(hasBase ? (base?.fields ?? []) : null, mine.fields, theirs.fields);
  return merged;
}

/**
 * mergeLayoutElements merges an editor's elements into the room's (see the top of this file). The result keeps
 * the room's order, with the editor's new elements after it.
 */
export function mergeLayoutElements({ base, mine, theirs, deleted }: MergeInput): LayoutElement[] {
  const hasBase = base !== null;
  const baseById = new Map((base ?? []).map((e) => [e.id, e]));
  const mineById = new Map(mine.map((e) => [e.id, e]));
  const theirIds = new Set(theirs.map((e) => e.id));
  const out: LayoutElement[] = [];
  for (const element of theirs) {
    const mineElement = mineById.get(element.id);
    const baseElement = baseById.get(element.id) ?? null;
    if (!mineElement) {
      if (!hasBase || !baseElement) out.push(element);
      continue;
    }
    // An element the editor knew but the room had not (a base element the room re-created) merges as new.
    out.push(mergeElement(baseElement, hasBase && baseElement !== null, mineElement, element));
  }
  for (const element of mine) {
    if (theirIds.has(element.id) || deleted?.has(element.id)) continue;
    if (hasBase && baseById.has(element.id)) continue;
    out.push(element);
  }
  return out;
}

/** deletedElementIds lists the ids of elements in `before` that `after` no longer has. */
export function deletedElementIds(before: readonly LayoutElement[], after: readonly LayoutElement[]): string[] {
  const kept = new Set(after.map((e) => e.id));
  return before.filter((e) => !kept.has(e.id)).map((e) => e.id);
}
