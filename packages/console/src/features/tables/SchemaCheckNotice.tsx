import { CircleCheck, LoaderCircle, TriangleAlert } from 'lucide-react';
import type { useSchemaCheck } from './useSchemaCheck';

/** SchemaCheckNotice says whether the table's records allow the planned schema change, as the server sees it. */
export function SchemaCheckNotice({ check }: { check: ReturnType<typeof useSchemaCheck> }) {
  if (check.isIdle) return null;
  if (check.isChecking && !check.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircle aria-hidden className="size-4 animate-spin" />
        Checking the change against the existing records…
      </p>
    );
  }
  if (check.isError) return null;
  const refusal = check.data?.refusal;
  if (refusal) {
    return (
      <p
        className="flex gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
        data-testid="schema-check-refusal"
      >
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
        <span className="min-w-0 break-words">{refusal.message}</span>
      </p>
    );
  }
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground">
      <CircleCheck aria-hidden className="size-4 text-primary" />
      The existing records allow this change.
    </p>
  );
}
