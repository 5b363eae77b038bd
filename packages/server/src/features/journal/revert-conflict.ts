// What stops a revert, as every area that can be reverted says it (history's own changes, SQL functions'
// definitions): features/history turns it into the 409 that names the conflict.

/** ConflictReason names what stopped a revert (the `details.reason` of the 409). */
export type ConflictReason =
  | 'record_changed'
  | 'record_deleted'
  | 'record_exists'
  | 'column_missing'
  | 'unique_taken'
  | 'value_required'
  | 'value_invalid'
  | 'table_deleted'
  | 'table_exists'
  | 'table_changed'
  | 'schema_refused'
  | 'already_reverted'
  | 'concurrent_change'
  | 'state_unreadable';

/** RevertConflict is a revert refused by later changes: the reason, and the problem in words. */
export class RevertConflict extends Error {
  constructor(
    readonly reason: ConflictReason,
    readonly problem: string,
  ) {
    super(problem);
    this.name = 'RevertConflict';
  }
}
