import type { TableResponse } from '@basalt/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, ArrowLeft } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField, fieldAria } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, errorStatus } from '@/lib/api-errors';
import { ColumnsEditor, useTableColumns, useTableNames } from './ColumnsEditor';
import { SchemaCheckNotice } from './SchemaCheckNotice';
import { SchemaDiffPreview } from './SchemaDiffPreview';
import { diffTableDraft } from './schema-diff';
import { tableIdParam } from './TableDetailPage';
import { draftFromTable, type TableDraft, tableDraftSchema, toTableChange } from './table-draft';
import { useTableQuery, useUpdateTableMutation } from './tables.queries';
import { useSchemaCheck } from './useSchemaCheck';

function SchemaEditor({ table }: { table: TableResponse }) {
  const navigate = useNavigate();
  const form = useForm<TableDraft>({ resolver: zodResolver(tableDraftSchema), defaultValues: draftFromTable(table) });
  const draft = form.watch();
  const lines = diffTableDraft(table, draft);
  const change = tableDraftSchema.safeParse(draft).success ? toTableChange(table, draft) : null;
  const check = useSchemaCheck(table, change);
  const update = useUpdateTableMutation(table);
  const [refusal, setRefusal] = useState<string | null>(null);
  // While the server's check of this very draft says the records refuse it, Save waits: the notice says why, and
  // the draft stays as it is to be mended.
  const refusedNow = Boolean(check.data?.refusal) && !check.isChecking;
  const saveHintId = useId();
  const { errors } = form.formState;
  // A refusal explains the draft that was sent; any edit makes it stale.
  useEffect(() => {
    const subscription = form.watch(() => setRefusal(null));
    return () => subscription.unsubscribe();
  }, [form]);

  const tableNames = useTableNames();
  const tableColumns = useTableColumns();
  const save = form.handleSubmit((valid) => {
    const request = toTableChange(table, valid);
    setRefusal(null);
    if (!request) return;
    update.mutate(request, {
      onSuccess: (updated) => navigate(`/tables/${updated.id}?tab=schema`),
      onError: (error) => setRefusal(errorMessage(error)),
    });
  });

  return (
    <form
      noValidate
      onSubmit={save}
      className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start"
    >
      <Card>
        <CardHeader>
          <CardTitle>Table</CardTitle>
          <CardDescription>Rename the table, describe it, and add, rename, retype or drop its columns.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <FormField id="edit-table-name" label="Table name" error={errors.name?.message}>
            <Input
              {...fieldAria('edit-table-name', errors.name?.message)}
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-[13px]"
              {...form.register('name')}
            />
          </FormField>
          <FormField id="edit-table-description" label="Description (optional)" error={errors.description?.message}>
            <Textarea
              {...fieldAria('edit-table-description', errors.description?.message)}
              rows={2}
              {...form.register('description')}
            />
          </FormField>
          <ColumnsEditor form={form} tableNames={tableNames} tableColumns={tableColumns} />
        </CardContent>
      </Card>
      <Card className="lg:sticky lg:top-20">
        <CardHeader>
          <CardTitle>Planned changes</CardTitle>
          <CardDescription>
            What saving will do to {table.name}, in order. It runs as one change, or not at all.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          <SchemaDiffPreview lines={lines} />
          {!refusal && <SchemaCheckNotice check={check} />}
          {refusal && (
            <div
              role="alert"
              className="flex gap-2 rounded-lg border border-destructive/40 bg-destructive/8 p-3 text-sm text-destructive"
            >
              <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
              <span className="min-w-0 break-words">{refusal}</span>
            </div>
          )}
          <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
            <Button asChild variant="outline">
              <Link to={`/tables/${table.id}`}>Cancel</Link>
            </Button>
            <Button
              type="submit"
              disabled={lines.length === 0 || update.isPending || refusedNow}
              aria-describedby={refusedNow ? saveHintId : undefined}
            >
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
          {refusedNow && (
            <p id={saveHintId} className="text-xs text-muted-foreground sm:text-right">
              Save is off until the records allow the change: mend the draft above, or change the records first. Your
              edits are kept.
            </p>
          )}
        </CardContent>
      </Card>
    </form>
  );
}

/** TableSchemaEditPage is /tables/:id/edit: edit a table's name, description and columns, with a preview of the change. */
export function TableSchemaEditPage() {
  const id = tableIdParam(useParams().id);
  const table = useTableQuery(id);
  const back = (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-muted-foreground">
      <Link to={id > 0 ? `/tables/${id}` : '/tables'}>
        <ArrowLeft />
        Back
      </Link>
    </Button>
  );
  if (table.isError || id < 0) {
    const missing = id < 0 || errorStatus(table.error) === 404;
    return (
      <div className="grid grid-cols-1 gap-6">
        {back}
        <Card>
          <EmptyState
            icon={AlertCircle}
            title={missing ? 'Table not found' : 'Failed to load the table'}
            description={
              missing ? 'It may have been deleted, or it belongs to another account.' : errorMessage(table.error)
            }
          />
        </Card>
      </div>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      <header className="grid gap-3">
        {back}
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Edit Table</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {table.data ? (
              <>
                Change the columns of <span className="font-mono">{table.data.name}</span>. Nothing is saved until you
                save.
              </>
            ) : (
              'Loading the table…'
            )}
          </p>
        </div>
      </header>
      {table.data && !table.isPlaceholderData ? (
        // A saved change gives a new updatedAt: start again from the table as it is now.
        <SchemaEditor key={table.data.updatedAt} table={table.data} />
      ) : (
        <Skeleton className="h-96 w-full" />
      )}
    </div>
  );
}
