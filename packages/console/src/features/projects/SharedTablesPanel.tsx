import { Users } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useSharedTablesQuery } from './projects.queries';

// Tables other accounts share with the signed-in person through projects, each with its project's
// name and the person's role there; shown on /tables and the dashboard, and nothing when there are none.

/** SharedTablesPanel lists the tables shared with the caller. */
export function SharedTablesPanel() {
  const shared = useSharedTablesQuery();
  const tables = shared.data ?? [];
  if (tables.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users className="size-4" /> Shared with you
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-md border">
          {tables.map((table) => (
            <li key={`${table.projectId}-${table.id}`} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
              <Link to={`/tables/${table.id}`} className="min-w-0 flex-1 truncate font-medium hover:underline">
                {table.name}
              </Link>
              <span className="text-xs text-muted-foreground">
                {table.projectName} · by {table.ownerName ?? 'someone'}
              </span>
              <Badge variant="outline">{table.role}</Badge>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
