import type { AccountImportReport } from '@basalt/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Download, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-errors';
import { showToast } from '@/lib/toast';
import { saveDownload, useAccountImportMutation } from './backups.queries';

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

// Settings › Account › Your data: the account's tables as one archive to take to another Basalt, and such an
// archive brought in here. An import is checked first (a dry run): the person sees what it would create, and under
// which names, before anything is written.

function ImportReport({ report }: { report: AccountImportReport }) {
  return (
    <Table aria-label={report.dryRun ? 'What the import would create' : 'What the import created'}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Table</TableHead>
          <TableHead>Imported as</TableHead>
          <TableHead className="text-right">Rows</TableHead>
          <TableHead className="hidden text-right sm:table-cell">History</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {report.tables.map((table) => (
          <TableRow key={table.name}>
            <TableCell className="font-medium">{table.name}</TableCell>
            <TableCell>
              {table.importedAs}
              {table.renamed && <span className="ml-1 text-xs text-muted-foreground">(name taken)</span>}
            </TableCell>
            <TableCell className="text-right tabular-nums">{table.rows}</TableCell>
            <TableCell className="hidden text-right tabular-nums sm:table-cell">{table.history}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** AccountDataCard exports the account's own tables and imports an export into it. */
export function AccountDataCard() {
  const queryClient = useQueryClient();
  const [history, setHistory] = useState(true);
  const [exporting, setExporting] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<AccountImportReport | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const importer = useAccountImportMutation();

  const exportData = async () => {
    setExporting(true);
    try {
      await saveDownload(`/api/account/export?history=${history}`, 'basalt-account.tar.gz');
    } catch (error) {
      showToast({ title: 'Export Failed', description: errorMessage(error, 'Export failed'), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };
  const check = (chosen: File) => {
    setFile(chosen);
    setReport(null);
    importer.mutate({ file: chosen, dryRun: true }, { onSuccess: setReport });
  };
  const confirm = () => {
    if (!file) return;
    importer.mutate(
      { file, dryRun: false },
      {
        onSuccess: (done) => {
          setReport(done);
          setFile(null);
          void queryClient.invalidateQueries();
          showToast({
            title: 'Import Complete',
            description: `${count(done.totals.tables, 'table')} imported.`,
            variant: 'success',
          });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Export your tables (schema, rows, access rules, history) as one archive, and import one into this account.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex items-start gap-3">
            <Switch id="export-history" checked={history} onCheckedChange={setHistory} />
            <Label htmlFor="export-history">Include history</Label>
          </div>
          <div className="flex flex-wrap gap-2">
            <input
              ref={input}
              type="file"
              accept=".gz,.tgz,application/gzip"
              className="hidden"
              data-testid="account-import-input"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                if (chosen) check(chosen);
                e.target.value = '';
              }}
            />
            <Button variant="outline" disabled={importer.isPending} onClick={() => input.current?.click()}>
              <Upload />
              Import
            </Button>
            <Button variant="outline" disabled={exporting} onClick={() => void exportData()}>
              <Download />
              {exporting ? 'Exporting...' : 'Export'}
            </Button>
          </div>
        </div>
        {importer.isPending && <p className="text-sm text-muted-foreground">Reading the archive…</p>}
        {report && (
          <div className="grid gap-3">
            <p className="text-sm">
              {report.dryRun
                ? `This archive would add ${count(report.totals.tables, 'table')} with ${count(report.totals.rows, 'row')}:`
                : `Imported ${count(report.totals.tables, 'table')} with ${count(report.totals.rows, 'row')}:`}
            </p>
            <ImportReport report={report} />
            {report.dryRun && file && (
              <div className="flex justify-end gap-2">
                <Button variant="outline" onClick={() => setReport(null)}>
                  Cancel
                </Button>
                <Button disabled={importer.isPending} onClick={confirm}>
                  Import {count(report.totals.tables, 'table')}
                </Button>
              </div>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
