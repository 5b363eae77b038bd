import { BookOpen, FileCode2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDocsTablesQuery } from './api-docs.queries';
import { ChosenTableView, DocsTablesGate } from './DocsTablesGate';
import { TableApiAuthGuide } from './TableApiAuthGuide';
import { TableEndpointsCard } from './TableEndpointsCard';
import { TableQueryExamples } from './TableQueryExamples';
import { useDocsSearchParams } from './useDocsSearchParams';

const TABS = ['tables', 'authentication', 'examples'] as const;

/** TableApiPage is /table-api: every table's endpoints, how to authenticate, and query examples (spec §2). */
export function TableApiPage() {
  const origin = window.location.origin;
  const { tab, setTab, tableName, setTableName } = useDocsSearchParams(TABS, 'tables');
  // The Authentication tab needs no table, but names the first one in its example when there is one.
  const firstTable = useDocsTablesQuery().data?.[0]?.name ?? 'your_table';
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Table API"
        description="The REST endpoints of each of your tables, and how to call them."
        actions={
          <>
            <Button asChild variant="outline" size="sm">
              <Link to="/record-api">
                <FileCode2 />
                Record API
              </Link>
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to="/record-api/reference">
                <BookOpen />
                OpenAPI reference
              </Link>
            </Button>
          </>
        }
      />
      <Tabs value={tab} onValueChange={setTab} className="grid grid-cols-1 gap-4">
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="tables">Tables</TabsTrigger>
          <TabsTrigger value="authentication">Authentication</TabsTrigger>
          <TabsTrigger value="examples">Examples</TabsTrigger>
        </TabsList>
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
      </Tabs>
    </div>
  );
}
