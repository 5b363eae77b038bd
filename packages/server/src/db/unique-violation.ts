// Both engines report a unique index's violation with their own code: PostgreSQL 23505, SQLite
// SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY). Stores that insert under a unique index ask this one question.

/** isUniqueViolation tells whether a database error is a unique index's (or primary key's) violation. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
