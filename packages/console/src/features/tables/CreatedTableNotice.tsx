import { CircleCheck, X } from 'lucide-react';
import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** CreatedTableState is what /tables/new hands the list it returns to: the name of the table it created. */
export interface CreatedTableState {
  createdTable: string;
}

const createdTableOf = (state: unknown): string | null =>
  typeof state === 'object' && state !== null && 'createdTable' in state && typeof state.createdTable === 'string'
    ? state.createdTable
    : null;

/**
 * CreatedTableNotice is the list's own word after the dedicated page created a table: "Table created successfully"
 * with the table's name, in the page (the spec's "Table created" toast is shown too, and only one toast shows at
 * a time). Dismissing it, or any other visit, forgets it.
 */
export function CreatedTableNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const titleId = useId();
  const name = createdTableOf(location.state);
  if (name === null) return null;
  return (
    <div
      role="status"
      aria-labelledby={titleId}
      className="flex items-start gap-3 rounded-lg border border-primary/30 bg-primary/5 p-4 text-sm"
    >
      <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p id={titleId} className="font-semibold">
          Table created successfully
        </p>
        <p className="break-words text-muted-foreground">"{name}" is in your tables, ready for its first records.</p>
      </div>
      <button
        type="button"
        aria-label="Dismiss"
        className="rounded-md p-1 opacity-60 transition hover:opacity-100 focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none"
        onClick={() => navigate(location.pathname, { replace: true, state: null })}
      >
        <X className="size-4" />
      </button>
    </div>
  );
}
