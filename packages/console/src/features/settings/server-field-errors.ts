import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/api-errors';

/** showServerFieldErrors puts the per-field messages of a refused save under the fields they name. */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): void {
  if (!(error instanceof ApiError) || !error.validationErrors) return;
  for (const field of fields) {
    const message = error.validationErrors[field]?.[0];
    if (message) setError(field, { type: 'server', message }, { shouldFocus: true });
  }
}
