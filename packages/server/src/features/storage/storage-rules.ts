import type { Actor } from '../../lib/actor/actor.js';
import { invalidInput } from './storage-errors.js';

// Who of an account's app may do what in one of its buckets: per operation, like table rules. The account itself
// (its console session, its API keys) and the app's service key reach everything; the app's signed-out callers
// and signed-in end users get what the bucket's rules grant: `nobody` (the default), `public` (anyone with the
// app's key), `authenticated` (any signed-in end user) or `own` (objects under a first folder named by the end
// user's id, as Supabase's documented policy `(storage.foldername(name))[1] = auth.uid()` does).

/** StorageOperation is what a rule is about. */
export type StorageOperation = 'read' | 'insert' | 'update' | 'delete';
/** RuleLevel is who a rule lets in. */
export type RuleLevel = 'nobody' | 'public' | 'authenticated' | 'own';
/** BucketAccess is a bucket's rules. */
export type BucketAccess = Record<StorageOperation, RuleLevel>;

const OPERATIONS: StorageOperation[] = ['read', 'insert', 'update', 'delete'];
const LEVELS: RuleLevel[] = ['nobody', 'public', 'authenticated', 'own'];

/** DEFAULT_ACCESS lets no app caller in. */
export const DEFAULT_ACCESS: BucketAccess = { read: 'nobody', insert: 'nobody', update: 'nobody', delete: 'nobody' };

/** readAccess reads stored rules (unknown or missing ones are `nobody`). */
export function readAccess(stored: string | null): BucketAccess {
  let parsed: unknown = null;
  try {
    parsed = stored ? JSON.parse(stored) : null;
  } catch {
    parsed = null;
  }
  const access = { ...DEFAULT_ACCESS };
  if (typeof parsed === 'object' && parsed !== null) {
    for (const op of OPERATIONS) {
      const level = (parsed as Record<string, unknown>)[op];
      if (LEVELS.includes(level as RuleLevel)) access[op] = level as RuleLevel;
    }
  }
  return access;
}

/** parseAccess checks rules sent by a client: an object of known operations and levels, else 400. */
export function parseAccess(raw: unknown, current: BucketAccess = DEFAULT_ACCESS): BucketAccess {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidInput('access must be an object');
  const access = { ...current };
  for (const [op, level] of Object.entries(raw)) {
    if (!OPERATIONS.includes(op as StorageOperation)) throw invalidInput(`Unknown operation in access: ${op}`);
    if (!LEVELS.includes(level as RuleLevel)) {
      throw invalidInput(`access.${op} must be one of ${LEVELS.join(', ')}`);
    }
    access[op as StorageOperation] = level as RuleLevel;
  }
  return access;
}

/** hasFullAccess tells whether the actor is the account itself (or the app's service key). */
export function hasFullAccess(actor: Actor): boolean {
  return !actor.app || actor.app.role === 'service_role';
}

/** mayDo tells whether the actor may do an operation on an object name of a bucket with these rules. */
export function mayDo(actor: Actor, access: BucketAccess, op: StorageOperation, name: string): boolean {
  if (hasFullAccess(actor)) return true;
  const level = access[op];
  if (level === 'public') return true;
  const user = actor.endUser?.id;
  if (!user) return false;
  if (level === 'authenticated') return true;
  return level === 'own' && name.split('/')[0] === user && name.includes('/');
}
