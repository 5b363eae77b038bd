import { type DatabaseConnection, SQL_LIMITS, sqlRunOptionsSchema } from '@basalt/shared';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Switch } from '@/components/ui/switch';
import { AddConnectionDialog } from './AddConnectionDialog';

/** RunOptions are the options panel's values. */
export interface RunOptions {
  dryRun: boolean;
  transactional: boolean;
  stopOnError: boolean;
  timeout: number;
}

/** DEFAULT_RUN_OPTIONS are the spec's defaults. */
export const DEFAULT_RUN_OPTIONS: RunOptions = {
  dryRun: false,
  transactional: true,
  stopOnError: true,
  timeout: SQL_LIMITS.timeoutDefault,
};

/** timeoutError is the shared schema's message for a timeout, the same the server gives. */
export function timeoutError(timeout: number): string | undefined {
  const result = sqlRunOptionsSchema.safeParse({ timeout });
  return result.success ? undefined : result.error.issues.find((i) => i.path[0] === 'timeout')?.message;
}

const SWITCHES: Array<{ key: 'dryRun' | 'transactional' | 'stopOnError'; label: string; hint: string }> = [
  { key: 'dryRun', label: 'Dry run', hint: 'Validate only: changes are rolled back (MySQL: parse and EXPLAIN).' },
  { key: 'transactional', label: 'Transactional', hint: 'Run every statement in one transaction.' },
  { key: 'stopOnError', label: 'Stop on error', hint: 'Stop at the first failing statement.' },
];

/** SqlOptionsPanel picks the connection and the run's options. */
export function SqlOptionsPanel({
  projectId,
  connections,
  connectionId,
  onConnectionChange,
  options,
  onOptionsChange,
  connectionError,
}: {
  projectId: string | null;
  connections: DatabaseConnection[];
  connectionId: number | null;
  onConnectionChange: (id: number | null) => void;
  /** connectionError is a run's "Database connection is required", shown under the selector. */
  connectionError?: string;
  options: RunOptions;
  onOptionsChange: (options: RunOptions) => void;
}) {
  const [adding, setAdding] = useState(false);
  const error = timeoutError(options.timeout);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Options</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormField
          id="sql-connection"
          label="Database connection"
          error={connectionError}
          labelAction={
            <Button variant="ghost" size="sm" disabled={!projectId} onClick={() => setAdding(true)}>
              <Plus aria-hidden /> Add
            </Button>
          }
        >
          <NativeSelect
            {...fieldAria('sql-connection', connectionError)}
            value={connectionId ?? ''}
            disabled={connections.length === 0}
            onChange={(e) => onConnectionChange(e.target.value ? Number(e.target.value) : null)}
          >
            {connections.length === 0 && <option value="">No connections yet</option>}
            {connections.map((c) => (
              <option key={c.id} value={c.id} disabled={!c.isActive}>
                {c.name} ({c.engine === 'MYSQL' ? 'MySQL' : 'PostgreSQL'}){c.isActive ? '' : ' — inactive'}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        {SWITCHES.map((s) => (
          <div key={s.key} className="flex items-start justify-between gap-3">
            <div className="grid gap-0.5">
              <Label htmlFor={`sql-${s.key}`}>{s.label}</Label>
              <p className="text-xs text-muted-foreground">{s.hint}</p>
            </div>
            <Switch
              id={`sql-${s.key}`}
              checked={options[s.key]}
              onCheckedChange={(checked) => onOptionsChange({ ...options, [s.key]: checked })}
            />
          </div>
        ))}
        <FormField id="sql-timeout" label="Timeout (ms)" error={error}>
          <Input
            {...fieldAria('sql-timeout', error)}
            type="number"
            inputMode="numeric"
            min={SQL_LIMITS.timeoutMin}
            max={SQL_LIMITS.timeoutMax}
            step={1000}
            value={Number.isFinite(options.timeout) ? options.timeout : ''}
            onChange={(e) => onOptionsChange({ ...options, timeout: e.target.valueAsNumber })}
          />
        </FormField>
      </CardContent>
      <AddConnectionDialog
        projectId={projectId}
        open={adding}
        onOpenChange={setAdding}
        onCreated={(connection) => onConnectionChange(connection.id)}
      />
    </Card>
  );
}
