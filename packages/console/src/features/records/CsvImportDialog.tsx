import type { TableResponse } from '@basalt/shared';
import { TriangleAlert } from 'lucide-react';
import { useRef, useState } from 'react';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { type CsvImport, importParts, parseCsvFile } from './csv-import';
import { type ImportProgress, useImportRecordsMutation } from './records.queries';

const n = (value: number) => value.toLocaleString('en-US');

function ImportSummary({ file }: { file: CsvImport }) {
  const blocked = file.unknown.length > 0 || file.problemCount > 0;
  return (
    <div className="grid gap-2 text-sm" aria-live="polite">
      <p>
        {n(file.rows.length)} {file.rows.length === 1 ? 'record' : 'records'} with{' '}
        {file.columns.length === 0 ? 'no known columns' : file.columns.join(', ')}.
      </p>
      {file.ignored.length > 0 && (
        <p className="text-muted-foreground">{file.ignored.join(', ')}: set by the server, left out.</p>
      )}
      {blocked && (
        <div className="flex gap-2 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-destructive">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <div className="grid gap-1">
            {file.unknown.length > 0 && <p>The table has no column {file.unknown.map((c) => `"${c}"`).join(', ')}.</p>}
            {file.problems.map((problem) => (
              <p key={problem}>{problem}</p>
            ))}
            {file.problemCount > file.problems.length && (
              <p>…and {n(file.problemCount - file.problems.length)} more.</p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function ImportForm({ table, onDone }: { table: TableResponse; onDone: () => void }) {
  const [file, setFile] = useState<CsvImport | null>(null);
  const [readError, setReadError] = useState<string | undefined>();
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  // What was created when a part is refused: the parts before it stay.
  const created = useRef(0);
  const importing = useImportRecordsMutation(table, (next) => {
    created.current = next.created;
    setProgress(next);
  });
  const ready = file !== null && file.rows.length > 0 && file.unknown.length === 0 && file.problemCount === 0;
  const submit = () => {
    if (!file || !ready) return;
    created.current = 0;
    importing.mutate(importParts(file.rows), {
      onSuccess: (done) => {
        showToast({
          title: 'Records imported',
          description: `${n(done.created)} ${done.created === 1 ? 'record was' : 'records were'} added to ${table.name}.`,
          variant: 'success',
        });
        onDone();
      },
      onError: (error) =>
        showToast({
          title: 'Import stopped',
          description: `${n(created.current)} of ${n(file.rows.length)} records were added. ${errorMessage(error)}`,
          variant: 'destructive',
        }),
    });
  };
  return (
    <DialogForm
      aria-label="Import CSV"
      onSubmit={submit}
      onCancel={onDone}
      submitLabel={file && ready ? `Import ${n(file.rows.length)} records` : 'Import'}
      pendingLabel={progress ? `Importing ${n(progress.created)} of ${n(progress.total)}...` : 'Importing...'}
      pending={importing.isPending}
      submitDisabled={!ready}
    >
      <FormField id="csv-import-file" label="CSV file" error={readError}>
        <Input
          {...fieldAria('csv-import-file', readError)}
          type="file"
          accept=".csv,text/csv"
          className="pt-1.5"
          disabled={importing.isPending}
          onChange={async (event) => {
            const chosen = event.currentTarget.files?.[0];
            setFile(null);
            setReadError(undefined);
            if (!chosen) return;
            try {
              setFile(await parseCsvFile(chosen, table.schema));
            } catch (error) {
              setReadError(`The file could not be read: ${errorMessage(error)}`);
            }
          }}
        />
      </FormField>
      {file && <ImportSummary file={file} />}
    </DialogForm>
  );
}

/** CsvImportDialog adds the records of a CSV file (a header row of column names) to a table. */
export function CsvImportDialog({
  table,
  open,
  onOpenChange,
}: {
  table: TableResponse;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Import CSV into ${table.name}`}
      description="The first row names the columns. Each row becomes a new record; id, created_at and updated_at are set by the server."
    >
      <ImportForm table={table} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}
