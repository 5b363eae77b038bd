/** FieldChange is one field of a record change; `before` or `after` is absent when the record did not exist. */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
}
