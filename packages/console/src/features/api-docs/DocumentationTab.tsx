import { BookOpen, FileCode2 } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LinkButton } from '@/components/ui/link-button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { useApiOrigin } from '@/lib/config';
import { CodeSample } from './CodeSample';
import { jsonText } from './code-literals';
import { EmbedExamples } from './EmbedExamples';
import { apiErrorBody, STATUS_CODES } from './status-codes';

// The API page's Documentation tab: bearer authentication with an API key, the
// status codes (200, 201, 400, 401, 403, 404, 429, 500, and the 409 and 413 the server also answers) and the
// error body {error: {code, message, details}}.

const ERROR_EXAMPLE = jsonText(
  apiErrorBody('INVALID_FIELD', '"qty" must be a number', { qty: ['"qty" must be a number'] }),
);

/** DocumentationTab explains how to authenticate, what the status codes mean and where the full reference is. */
export function DocumentationTab() {
  const origin = useApiOrigin();
  const tables = useTablesQuery().data ?? [];
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Authentication</CardTitle>
          <CardDescription>
            Send an API key as a bearer token with every request:{' '}
            <code className="font-mono text-[13px]">Authorization: Bearer &lt;API key&gt;</code>. A key grants full
            access to your account's tables, so keep it on your servers.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <CodeSample
            label="authenticated request"
            title="Authenticated request (cURL)"
            code={`curl -H "Authorization: Bearer $BASALT_API_KEY" \\\n  "${origin}/api/table/customers?limit=10&offset=0&orderBy=id&order=asc"`}
          />
        </CardContent>
      </Card>
      <Card className="overflow-hidden">
        <CardHeader>
          <CardTitle>Status codes</CardTitle>
          <CardDescription>
            Errors answer <code className="font-mono text-[13px]">{'{"error": {"code", "message", "details"}}'}</code>,
            where details names each refused field. Lists take limit (default 100, at most 1000) and offset, and answer
            X-Total-Count.
          </CardDescription>
        </CardHeader>
        <Table aria-label="Status codes">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Status</TableHead>
              <TableHead>Meaning</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {STATUS_CODES.map((code) => (
              <TableRow key={code.status}>
                <TableCell className="font-mono">{code.status}</TableCell>
                <TableCell className="whitespace-normal">
                  <span className="font-medium">{code.title}</span>{' '}
                  <span className="text-muted-foreground">{code.meaning}</span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <CardContent className="pt-4 sm:pt-4">
          <CodeSample label="error body" title="Error body (400)" code={ERROR_EXAMPLE} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Full reference</CardTitle>
          <CardDescription>
            Every endpoint of each of your tables with runnable examples, and the same API as an OpenAPI 3.1 document.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <LinkButton to="/record-api" icon={FileCode2}>
            Record API docs
          </LinkButton>
          <LinkButton to="/record-api/reference" icon={BookOpen}>
            OpenAPI reference
          </LinkButton>
        </CardContent>
      </Card>
      <EmbedExamples tables={tables} url={origin} />
    </div>
  );
}
