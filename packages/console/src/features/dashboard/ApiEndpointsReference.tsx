import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { EndpointDoc } from '@/features/api-docs/api-reference';
import { EndpointList } from '@/features/api-docs/EndpointList';

// The dashboard's static reference: sign-in, tables, and a table's generated endpoints.
const GROUPS: ReadonlyArray<{ title: string; endpoints: EndpointDoc[] }> = [
  {
    title: 'Authentication',
    endpoints: [
      { method: 'POST', path: '/api/auth/register', description: 'Create an account' },
      { method: 'POST', path: '/api/auth/login', description: 'Sign in' },
      { method: 'GET', path: '/api/auth/me', description: 'Validate the session, get the current user' },
      { method: 'POST', path: '/api/auth/logout', description: 'Sign out' },
    ],
  },
  {
    title: 'Tables',
    endpoints: [
      { method: 'GET', path: '/api/tables', description: 'List your tables' },
      { method: 'POST', path: '/api/tables', description: 'Create a table' },
      { method: 'GET', path: '/api/tables/{id}', description: 'Get one table' },
    ],
  },
  {
    title: 'Records of a table',
    endpoints: [
      { method: 'GET', path: '/api/{table}', description: 'List records' },
      { method: 'POST', path: '/api/{table}', description: 'Create a record' },
      { method: 'GET', path: '/api/{table}/{id}', description: 'Get one record' },
      { method: 'PATCH', path: '/api/{table}/{id}', description: 'Update a record' },
      { method: 'DELETE', path: '/api/{table}/{id}', description: 'Delete a record' },
    ],
  },
];

/** ApiEndpointsReference is the dashboard's static list of the main endpoints. */
export function ApiEndpointsReference() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>API Endpoints</CardTitle>
        <CardDescription>
          Every table gets REST endpoints; /api/table/{'{table}'} works the same as /api/{'{table}'}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 lg:grid-cols-3">
        {GROUPS.map((group) => (
          <section key={group.title} className="grid content-start gap-2">
            <h4 className="text-sm font-medium">{group.title}</h4>
            <EndpointList endpoints={group.endpoints} compact />
          </section>
        ))}
      </CardContent>
    </Card>
  );
}
