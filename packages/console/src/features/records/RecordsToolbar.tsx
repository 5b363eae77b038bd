import type { TableResponse } from '@basalt/shared';
import { Download, ListFilter, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { downloadBlob } from '@/lib/download';
import { CsvImportDialog } from './CsvImportDialog';
import { ActiveFilters, NewFilterForm } from './RecordsFilterBar';
import type { FilterParams } from './records.api';
import { useExportRecordsMutation } from './records.queries';
import type { RecordFilter } from './records-filters';

/**
 * RecordsToolbar sits above the grid: Filter (a new filter's form, then the active filters), Import CSV and
 * Export CSV (the records the filters select), and Delete for the checked records.
 */
export function RecordsToolbar({
  table,
  filters,
  serverFilters,
  onFiltersChange,
  selectedCount,
  onDeleteSelected,
  canWrite,
}: {
  table: TableResponse;
  filters: RecordFilter[];
  serverFilters: FilterParams;
  onFiltersChange: (filters: RecordFilter[]) => void;
  selectedCount: number;
  onDeleteSelected: () => void;
  canWrite: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const exporting = useExportRecordsMutation(table, (file) => downloadBlob(file, `${table.name}.csv`));
  return (
    <div className="grid gap-3 border-b px-4 py-3 sm:px-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" aria-expanded={adding} onClick={() => setAdding((open) => !open)}>
          <ListFilter />
          Filter
        </Button>
        {canWrite && (
          <Button variant="outline" size="sm" onClick={() => setImporting(true)}>
            <Upload />
            Import CSV
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          disabled={exporting.isPending}
          onClick={() => exporting.mutate(serverFilters)}
        >
          <Download />
          {exporting.isPending ? 'Exporting...' : 'Export CSV'}
        </Button>
        {canWrite && selectedCount > 0 && (
          <Button variant="destructive" size="sm" className="sm:ml-auto" onClick={onDeleteSelected}>
            <Trash2 />
            Delete {selectedCount.toLocaleString('en-US')} selected
          </Button>
        )}
      </div>
      {adding && (
        <NewFilterForm
          schema={table.schema}
          onCancel={() => setAdding(false)}
          onAdd={(filter) => {
            onFiltersChange([...filters, filter]);
            setAdding(false);
          }}
        />
      )}
      <ActiveFilters filters={filters} onChange={onFiltersChange} />
      {canWrite && <CsvImportDialog table={table} open={importing} onOpenChange={setImporting} />}
    </div>
  );
}
