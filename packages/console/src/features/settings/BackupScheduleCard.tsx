import { BACKUP_LIMITS, type BackupSchedule } from '@basalt/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatDateTime } from '@/components/ui/relative-time';
import { Switch } from '@/components/ui/switch';
import { ApiError } from '@/lib/api';
import { useBackupScheduleQuery, useSaveScheduleMutation } from './backups.queries';

// The schedule of backups: a cron expression (checked by the server) and how many scheduled backups are kept.

function ScheduleForm({ schedule }: { schedule: BackupSchedule }) {
  const save = useSaveScheduleMutation();
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [cron, setCron] = useState(schedule.cron);
  const [keep, setKeep] = useState(String(schedule.keep));
  const fieldErrors = save.error instanceof ApiError ? (save.error.validationErrors ?? {}) : {};
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ enabled, cron, keep: Number(keep) });
      }}
    >
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <div className="flex items-start gap-3 sm:col-span-2">
          <Switch id="schedule-enabled" checked={enabled} onCheckedChange={setEnabled} />
          <div className="grid gap-0.5">
            <Label htmlFor="schedule-enabled">Scheduled backups</Label>
            <p className="text-xs text-muted-foreground">
              {schedule.nextRunAt ? `Next: ${formatDateTime(schedule.nextRunAt)}` : 'No backup is scheduled.'}
            </p>
          </div>
        </div>
        <FormField
          id="schedule-cron"
          label="Schedule (cron)"
          error={fieldErrors.cron?.[0]}
          hint={
            <p className="text-xs text-muted-foreground">
              Minute, hour, day, month, weekday: 0 3 * * * is daily at 03:00.
            </p>
          }
        >
          <Input
            id="schedule-cron"
            className="font-mono text-[13px]"
            autoComplete="off"
            spellCheck={false}
            value={cron}
            onChange={(e) => setCron(e.target.value)}
          />
        </FormField>
        <FormField
          id="schedule-keep"
          label="Keep"
          error={fieldErrors.keep?.[0]}
          hint={
            <p className="text-xs text-muted-foreground">The newest scheduled backups kept; older ones are deleted.</p>
          }
        >
          <Input
            id="schedule-keep"
            type="number"
            min={BACKUP_LIMITS.keepMin}
            max={BACKUP_LIMITS.keepMax}
            value={keep}
            onChange={(e) => setKeep(e.target.value)}
          />
        </FormField>
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save schedule'}
        </Button>
      </CardFooter>
    </form>
  );
}

/** BackupScheduleCard shows and changes when backups are taken and how many are kept. */
export function BackupScheduleCard() {
  const schedule = useBackupScheduleQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Schedule and retention</CardTitle>
        <CardDescription>When the instance backs itself up, on one node of the cluster.</CardDescription>
      </CardHeader>
      {schedule.data && <ScheduleForm key={JSON.stringify(schedule.data)} schedule={schedule.data} />}
    </Card>
  );
}
