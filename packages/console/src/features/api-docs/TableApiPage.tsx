import { FileCode2 } from 'lucide-react';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { LinkButton } from '@/components/ui/link-button';
import { TabsContent } from '@/components/ui/tabs';
import { useApiTablesQuery } from '@/features/tables/tables.queries';
import { useApiOrigin } from '@/lib/config';
import { DocsPage } from './DocsPage';
import { ChosenTableView, DocsTablesGate } from './DocsTablesGate';
import { TableApiAuthGuide } from './TableApiAuthGuide';
import { TableEndpointsCard } from './TableEndpointsCard';
import { TableQueryExamples } from './TableQueryExamples';
import { useDocsSearchParams } from './useDocsSearchParams';

const TABS = [
  { value: 'tables', label: 'Tables' },
  { value: 'authentication', label: 'Authentication' },
  { value: 'examples', label: 'Examples' },
] as const;

/** TableApiPage is /table-api: every table's endpoints, how to authenticate, and query examples. */
export function TableApiPage() {
  const origin = useApiOrigin();
  const { tab, setTab, tableName, setTableName } = useDocsSearchParams(TABS, 'tables');
  // The Authentication tab needs no table, but names the first one in its example when there is one.
  const firstTable = useApiTablesQuery().data?.[0]?.name ?? 'your_table';
  return (
    <DocsPage
      title="Table API"
      description="The REST endpoints of each of your tables, and how to call them."
      link={
        <LinkButton to="/record-api" icon={FileCode2}>
          Record API
        </LinkButton>
      }
      tabs={TABS}
      tab={tab}
      onTabChange={setTab}
    >
      <TabsContent value="tables">
        <DocsTablesGate>
          {(tables) => (
            <div className="grid grid-cols-1 gap-4">
              <Card>
                <CardHeader className="gap-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="grid min-w-0 gap-1.5">
                    <CardTitle>Base URL</CardTitle>
                    <CardDescription className="break-words">
                      <code className="font-mono text-[13px] break-all text-foreground">{origin}/api/table</code>{' '}
                      followed by a table's name. Authenticate with an API key as a bearer token.
                    </CardDescription>
                  </div>
                  <CopyButton value={`${origin}/api/table`} label="Copy base URL" showLabel className="w-fit" />
                </CardHeader>
              </Card>
              {tables.map((table) => (
                <TableEndpointsCard key={table.id} table={table} origin={origin} />
              ))}
            </div>
          )}
        </DocsTablesGate>
      </TabsContent>
      <TabsContent value="authentication">
        <TableApiAuthGuide origin={origin} tableName={firstTable} />
      </TabsContent>
      <TabsContent value="examples">
        <ChosenTableView pickerId="table-api-examples-table" tableName={tableName} onChoose={setTableName}>
          {(table) => <TableQueryExamples table={table} origin={origin} />}
        </ChosenTableView>
      </TabsContent>
    </DocsPage>
  );
}
