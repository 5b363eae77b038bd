import { Info } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useConsoleConfig } from '@/lib/config';
import { DatabaseHealthCard } from './DatabaseHealthCard';

// The engine is chosen when the server starts (DATABASE_URL), never from the console: this says which one runs
// and how to move to the other, with a backup restored on the new engine (docs/backups.md).

const ENGINES = {
  sqlite: {
    label: 'SQLite',
    about: 'One file in the data directory (BASALT_DATA_DIR), embedded in the server. The default.',
    other: 'PostgreSQL',
    steps: [
      'Back the instance up: npm run basalt -- backup --out basalt.tar.gz',
      'Start Basalt with DATABASE_URL=postgres://user:pass@host:5432/db (an empty database)',
      'Restore the archive there: npm run basalt -- restore basalt.tar.gz',
    ],
  },
  postgres: {
    label: 'PostgreSQL',
    about: 'The server named by DATABASE_URL; several Basalt nodes can share it.',
    other: 'SQLite',
    steps: [
      'Back the instance up in the format both engines read: BACKUP_FORMAT=logical npm run basalt -- backup --out basalt.tar.gz',
      'Stop Basalt and start it without DATABASE_URL',
      'Stop it again and restore the archive: npm run basalt -- restore basalt.tar.gz',
    ],
  },
} as const;

/** DatabaseTab is Settings › Database: the health card, the engine this instance runs on and how to move. */
export function DatabaseTab() {
  const { databaseType } = useConsoleConfig();
  const engine = ENGINES[databaseType];
  return (
    <div className="grid grid-cols-1 gap-6">
      <DatabaseHealthCard />
      <Card>
        <CardHeader>
          <CardTitle>Database engine</CardTitle>
          <CardDescription>
            The database this instance stores its data in, chosen when the server starts.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <section aria-label="Database engine in use" className="grid gap-1 rounded-lg border p-4">
            <p className="text-xs text-muted-foreground">In use</p>
            <p className="text-lg font-semibold">{engine.label}</p>
            <p className="text-sm text-muted-foreground">{engine.about}</p>
          </section>
          <section aria-labelledby="db-move-title" className="grid gap-2">
            <h3 id="db-move-title" className="text-sm font-semibold">
              Moving to {engine.other}
            </h3>
            <ol className="grid list-decimal gap-1.5 pl-5 text-sm text-muted-foreground">
              {engine.steps.map((step) => (
                <li key={step} className="[overflow-wrap:anywhere]">
                  {step}
                </li>
              ))}
            </ol>
            <p className="flex gap-2 text-xs text-muted-foreground">
              <Info aria-hidden className="mt-0.5 size-3.5 shrink-0" />
              <span>
                The restore backs the current state up first. Every table, record, account, key and history entry moves
                with the archive.
              </span>
            </p>
          </section>
        </CardContent>
      </Card>
    </div>
  );
}
