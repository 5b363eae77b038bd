import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { CodeBlock } from '@/features/tables/EndpointList';

// Spec console-management §2 "API page" (Documentation) and §8: bearer authentication, the status codes.
const STATUS_CODES: ReadonlyArray<[number, string]> = [
  [200, 'Success'],
  [201, 'Created'],
  [400, 'Invalid format or missing fields'],
  [401, 'Missing or invalid API key'],
  [403, 'The key lacks permission for this operation'],
  [404, 'No such table or record'],
  [429, 'Rate limit exceeded: wait and try again'],
  [500, 'Server error'],
];

/** DocumentationTab explains how to authenticate and what the status codes mean. */
export function DocumentationTab() {
  const origin = window.location.origin;
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Authentication</CardTitle>
          <CardDescription>Send an API key as a bearer token with every request.</CardDescription>
        </CardHeader>
        <CardContent>
          <CodeBlock label="Authenticated request">{`curl -H "Authorization: Bearer $BASALT_API_KEY" \\\n  "${origin}/api/table/customers?limit=10&offset=0&orderBy=id&order=asc"`}</CodeBlock>
        </CardContent>
      </Card>
      <Card className="overflow-hidden">
        <CardHeader>
          <CardTitle>Status codes</CardTitle>
          <CardDescription>
            Errors answer <code className="font-mono text-[13px]">{'{"error": {"code", "message", "details"}}'}</code>.
            Lists take limit (default 100, at most 1000) and offset, and answer X-Total-Count.
          </CardDescription>
        </CardHeader>
        <Table>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Status</TableHead>
              <TableHead>Meaning</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {STATUS_CODES.map(([status, meaning]) => (
              <TableRow key={status}>
                <TableCell className="font-mono">{status}</TableCell>
                <TableCell>{meaning}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}
