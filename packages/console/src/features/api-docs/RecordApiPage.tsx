import { BookOpen, KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ChosenTableView } from './DocsTablesGate';
import { RecordEndpointsAccordion } from './RecordEndpointsAccordion';
import { RecordExamples } from './RecordExamples';
import { RecordResponsesGuide } from './RecordResponsesGuide';
import { useDocsSearchParams } from './useDocsSearchParams';

const TABS = ['records', 'examples', 'responses'] as const;

/** RecordApiPage is /record-api: a table's record endpoints, runnable examples, and the responses (spec §2). */
export function RecordApiPage() {
  const origin = window.location.origin;
  const { tab, setTab, tableName, setTableName } = useDocsSearchParams(TABS, 'records');
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Record API"
        description="Read and write the records of a table over HTTP with an API key."
        actions={
          <>
            <Button asChild variant="outline" size="sm">
              <Link to="/api">
                <KeyRound />
                API keys
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
          <TabsTrigger value="records">Records</TabsTrigger>
          <TabsTrigger value="examples">Examples</TabsTrigger>
          <TabsTrigger value="responses">Responses</TabsTrigger>
        </TabsList>
        <TabsContent value="records">
          <ChosenTableView pickerId="record-api-records-table" tableName={tableName} onChoose={setTableName}>
            {(table) => <RecordEndpointsAccordion key={table.name} table={table} origin={origin} />}
          </ChosenTableView>
        </TabsContent>
        <TabsContent value="examples">
          <ChosenTableView pickerId="record-api-examples-table" tableName={tableName} onChoose={setTableName}>
            {(table) => <RecordExamples table={table} origin={origin} />}
          </ChosenTableView>
        </TabsContent>
        <TabsContent value="responses">
          <RecordResponsesGuide />
        </TabsContent>
      </Tabs>
    </div>
  );
}
