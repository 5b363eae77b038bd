// Foreign-key violations, as each engine reports them: SQLite (better-sqlite3) with the extended code
// SQLITE_CONSTRAINT_FOREIGNKEY, PostgreSQL with SQLSTATE 23503. Every foreign key of the system tables points
// at an account (or a refresh token's session), so a violation means the row a request wrote for was deleted
// meanwhile: typically an account deleted while one of its access tokens, still a valid signature, is used.

/** isForeignKeyViolation tells whether a database error is a foreign-key violation, on either engine. */
export function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
