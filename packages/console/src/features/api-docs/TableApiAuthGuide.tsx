import { KeyRound } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LinkButton } from '@/components/ui/link-button';
import { CodeSample } from './CodeSample';
import { jsonText } from './code-literals';
import { STATUS_CODES } from './status-codes';
import { authHeaderExample } from './table-api-examples';

const AUTH_FAILURES = STATUS_CODES.filter((code) => code.status === 401 || code.status === 403 || code.status === 429);

/** TableApiAuthGuide is the Table API page's Authentication tab: API keys as bearer tokens, and what failures say. */
export function TableApiAuthGuide({ origin, tableName }: { origin: string; tableName: string }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="grid gap-1.5">
            <CardTitle>Bearer API keys</CardTitle>
            <CardDescription>
              Send an API key with every request in the Authorization header. A key acts as your account: it reads and
              writes every table, so keep it on your servers and out of code that runs in a browser.
            </CardDescription>
          </div>
          <LinkButton to="/api" icon={KeyRound} className="w-fit">
            Manage API keys
          </LinkButton>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          <CodeSample label="Authorization header" code="Authorization: Bearer YOUR_API_KEY" />
          <CodeSample
            label="authenticated request"
            title="Authenticated request (cURL)"
            code={`export BASALT_API_KEY='YOUR_API_KEY'\n${authHeaderExample(origin, tableName)}`}
          />
          <p className="text-sm text-muted-foreground">
            The secret of a new key is shown once, when you create it; Basalt keeps only a hash. Delete a key on the API
            page and it stops working at once.
          </p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>When a request is refused</CardTitle>
          <CardDescription>
            Errors answer <code className="font-mono text-[13px]">{'{"error": {"code", "message", "details"}}'}</code>{' '}
            with one of these statuses.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          {AUTH_FAILURES.map((code) => (
            <div key={code.status} className="grid gap-2">
              <p className="text-sm">
                <span className="font-mono font-semibold">{code.status}</span> {code.title}:{' '}
                <span className="text-muted-foreground">{code.meaning}</span>
              </p>
              <CodeSample label={`${code.status} response`} code={jsonText(code.example)} />
            </div>
          ))}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Apps that sign their users in</CardTitle>
          <CardDescription>
            For code in a browser or a mobile app, use the PostgREST-compatible REST API with supabase-js instead: it
            sends your project's anon key and the signed-in user's token, never an API key. Each table's API tab shows
            the calls.
          </CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}
