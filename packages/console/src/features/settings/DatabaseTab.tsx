import { Info } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { useConsoleConfig } from '@/lib/config';
import { DatabaseHealthCard } from './DatabaseHealthCard';

const DATABASE_TYPES = [
  { value: 'sqlite', label: 'SQLite', hint: 'One file in the data directory. The default.' },
  { value: 'postgres', label: 'PostgreSQL', hint: 'Set DATABASE_URL to scale across processes.' },
] as const;

function ConnectionFields() {
  return (
    <fieldset disabled className="grid gap-4 sm:grid-cols-2">
      <legend className="sr-only">Connection</legend>
      <FormField id="db-host" label="Host">
        <Input id="db-host" placeholder="localhost" />
      </FormField>
      <FormField id="db-port" label="Port">
        <Input id="db-port" inputMode="numeric" placeholder="5432" />
      </FormField>
      <FormField id="db-name" label="Database">
        <Input id="db-name" placeholder="basalt" />
      </FormField>
      <FormField id="db-user" label="Username">
        <Input id="db-user" placeholder="postgres" autoComplete="off" />
      </FormField>
    </fieldset>
  );
}

/** DatabaseTab is Settings › Database: the health card, and which database this instance runs on (read-only). */
export function DatabaseTab() {
  const { databaseType } = useConsoleConfig();
  return (
    <div className="grid grid-cols-1 gap-6">
      <DatabaseHealthCard />
      <Card>
        <CardHeader>
          <CardTitle>Database Type</CardTitle>
          <CardDescription>The database this instance stores its data in.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <RadioGroup value={databaseType} disabled aria-label="Database type" className="sm:grid-cols-2">
            {DATABASE_TYPES.map((type) => (
              <div
                key={type.value}
                className="flex items-start gap-3 rounded-lg border p-3 has-[[data-state=checked]]:border-primary/60 has-[[data-state=checked]]:bg-primary/5"
              >
                <RadioGroupItem value={type.value} id={`db-type-${type.value}`} className="mt-0.5" />
                <div className="grid gap-1">
                  <Label htmlFor={`db-type-${type.value}`}>{type.label}</Label>
                  <p className="text-xs text-muted-foreground">{type.hint}</p>
                </div>
              </div>
            ))}
          </RadioGroup>
          <ConnectionFields />
          <p className="flex gap-2 text-sm text-muted-foreground">
            <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span>
              The database is chosen when the server starts: set <code className="font-mono text-xs">DATABASE_URL</code>{' '}
              to a <code className="font-mono text-xs">postgres://</code> address to run on PostgreSQL, or leave it
              unset for SQLite. It cannot be changed from the console.
            </span>
          </p>
        </CardContent>
        <CardFooter className="justify-end">
          <Button disabled>Save</Button>
        </CardFooter>
      </Card>
    </div>
  );
}
