import type { TableResponse } from '@basalt/shared';
import { ClipboardCopy } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useCopyToClipboard } from '@/components/ui/copy-button';
import { useTableEndpointsQuery } from '@/features/api-docs/api-docs.queries';
import {
  buildApiReference,
  curlSnippet,
  exampleRecord,
  restEndpoints,
  supabaseSnippet,
} from '@/features/api-docs/api-reference';
import { CodeBlock, EndpointList } from '@/features/api-docs/EndpointList';
import { TableEndpoints } from '@/features/api-docs/TableEndpoints';
import { useApiOrigin } from '@/lib/config';
import { showToast } from '@/lib/toast';

/** TableApiTab shows a table's endpoints and copies them as a Markdown reference. */
export function TableApiTab({ table }: { table: TableResponse }) {
  const origin = useApiOrigin();
  const { copy } = useCopyToClipboard();
  const endpoints = useTableEndpointsQuery(table.name);
  const copyReference = async () => {
    if (await copy(buildApiReference(table, origin, endpoints.data ?? []))) {
      showToast({
        title: 'Copied to clipboard',
        description: `The API reference of ${table.name} is on your clipboard.`,
      });
    }
  };
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="grid gap-1.5">
            <CardTitle>Record API</CardTitle>
            <CardDescription>
              Call these with an API key:{' '}
              <code className="font-mono text-[13px]">Authorization: Bearer &lt;API key&gt;</code>. Create keys on the{' '}
              <Link to="/api" className="text-primary underline-offset-4 hover:underline">
                API page
              </Link>
              .
            </CardDescription>
          </div>
          <Button variant="outline" size="sm" onClick={copyReference}>
            <ClipboardCopy />
            Copy API Reference
          </Button>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          <TableEndpoints table={table.name} />
          <div className="grid gap-2">
            <p className="text-sm font-medium">Example body</p>
            <CodeBlock label="Example body">{JSON.stringify(exampleRecord(table.schema), null, 2)}</CodeBlock>
          </div>
          <div className="grid gap-2">
            <p className="text-sm font-medium">cURL</p>
            <CodeBlock label="cURL example">{curlSnippet(table.name, origin)}</CodeBlock>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>REST API and supabase-js</CardTitle>
          <CardDescription>
            PostgREST-compatible endpoints for apps that sign their users in; the official supabase-js client works
            unmodified.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          <EndpointList endpoints={restEndpoints(table.name)} />
          <CodeBlock label="supabase-js example">{supabaseSnippet(table.name, table.schema)}</CodeBlock>
        </CardContent>
      </Card>
    </div>
  );
}
