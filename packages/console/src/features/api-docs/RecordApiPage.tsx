import { KeyRound } from 'lucide-react';
import { LinkButton } from '@/components/ui/link-button';
import { TabsContent } from '@/components/ui/tabs';
import { useApiOrigin } from '@/lib/config';
import { DocsPage } from './DocsPage';
import { ChosenTableView } from './DocsTablesGate';
import { RecordEndpointsAccordion } from './RecordEndpointsAccordion';
import { RecordExamples } from './RecordExamples';
import { RecordResponsesGuide } from './RecordResponsesGuide';
import { useDocsSearchParams } from './useDocsSearchParams';

const TABS = [
  { value: 'records', label: 'Records' },
  { value: 'examples', label: 'Examples' },
  { value: 'responses', label: 'Responses' },
] as const;

/** RecordApiPage is /record-api: a table's record endpoints, runnable examples, and the responses. */
export function RecordApiPage() {
  const origin = useApiOrigin();
  const { tab, setTab, tableName, setTableName } = useDocsSearchParams(TABS, 'records');
  return (
    <DocsPage
      title="Record API"
      description="Read and write the records of a table over HTTP with an API key."
      link={
        <LinkButton to="/api" icon={KeyRound}>
          API keys
        </LinkButton>
      }
      tabs={TABS}
      tab={tab}
      onTabChange={setTab}
    >
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
    </DocsPage>
  );
}
