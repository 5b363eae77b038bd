import { DEFAULT_TABLE_ACCESS, describeAccess, type TableResponse } from '@basalt/shared';
import { BookOpen, KeyRound, LogIn, Server, ShieldCheck, Table2, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadErrorState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { useAppQuery } from '@/features/app/app.queries';
import { useTablesQuery } from '@/features/tables/tables.queries';
import { guideSnippets, guideTable } from './app-guide';
import { CodeSample } from './CodeSample';
import { EmbedExamples } from './EmbedExamples';

function Step({
  n,
  icon: Icon,
  title,
  description,
  children,
}: {
  n: number;
  icon: typeof BookOpen;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="min-w-0" aria-labelledby={`guide-step-${n}`}>
      <CardHeader>
        <CardTitle id={`guide-step-${n}`} className="flex items-center gap-2">
          <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary/12 text-xs text-primary">
            {n}
          </span>
          <Icon aria-hidden className="size-4 text-muted-foreground" />
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">{children}</CardContent>
    </Card>
  );
}

function TablesWithRules({ tables }: { tables: TableResponse[] }) {
  if (tables.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        You have no tables yet.{' '}
        <Link to="/tables/new" className="font-medium text-primary underline-offset-4 hover:underline">
          Create one
        </Link>{' '}
        with a text column such as <code className="font-mono text-xs">owner</code>, then give it rules.
      </p>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Your tables and their rules">
      {tables.map((table) => (
        <li
          key={table.id}
          className="flex flex-col gap-1 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="min-w-0">
            <p className="font-mono text-sm font-medium break-all">{table.name}</p>
            <p className="text-xs text-muted-foreground">{describeAccess(table.access ?? DEFAULT_TABLE_ACCESS)}</p>
          </div>
          <Button asChild variant="outline" size="sm" className="w-fit">
            <Link to={`/tables/${table.id}?tab=access`}>Access rules</Link>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/**
 * DocumentationPage is /documentation: a guide to building an app on Basalt with supabase-js — app keys, signing
 * users up, access rules, queries — with snippets filled with the caller's real URL, anon key and tables.
 */
export function DocumentationPage() {
  const app = useAppQuery();
  const tables = useTablesQuery();
  const header = (
    <PageHeader
      title="Documentation"
      description="Build an app with its own users on Basalt, using the official supabase-js client."
    />
  );
  if (app.isError) {
    return (
      <div className="grid grid-cols-1 gap-6">
        {header}
        <Card>
          <LoadErrorState title="Failed to load your app keys" error={app.error} onRetry={() => void app.refetch()} />
        </Card>
      </div>
    );
  }
  if (!app.data) {
    return (
      <div className="grid grid-cols-1 gap-6" role="status" aria-label="Loading the guide">
        {header}
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  const list = tables.data ?? [];
  const table = guideTable(list);
  const code = guideSnippets({ url: app.data.url, anonKey: app.data.anonKey, table });
  const tableName = table?.name ?? 'todos';

  return (
    <div className="grid grid-cols-1 gap-6">
      {header}
      <nav aria-label="Also in the docs" className="flex flex-wrap gap-2">
        <Badge variant="outline">
          <Link to="/table-api">Table API</Link>
        </Badge>
        <Badge variant="outline">
          <Link to="/record-api">Record API</Link>
        </Badge>
        <Badge variant="outline">
          <Link to="/api">App keys and API keys</Link>
        </Badge>
      </nav>
      <Step
        n={1}
        icon={KeyRound}
        title="Connect your app"
        description="Install supabase-js and give it your app's URL and anon key."
      >
        <CodeSample label="install command" title="Terminal" code={code.install} />
        <CodeSample label="client setup" title="supabase.js" code={code.connect} />
        <p className="text-xs text-muted-foreground">
          These are your app keys (API page). The anon key is public; rolling the keys there replaces both at once.
        </p>
      </Step>
      <Step
        n={2}
        icon={LogIn}
        title="Sign your users up and in"
        description="Your app's users are its own, not Basalt accounts: the same email can be a user of two apps. They appear on the Users page."
      >
        <CodeSample label="sign-up example" title="Sign up" code={code.signUp} />
        <CodeSample label="sign-in example" title="Sign in" code={code.signIn} />
        <CodeSample label="session example" title="The signed-in user" code={code.session} />
        <CodeSample label="sign-out example" title="Sign out" code={code.signOut} />
      </Step>
      <Step
        n={3}
        icon={ShieldCheck}
        title="Decide who sees what"
        description="Each table has a rule per operation: nobody (the default), signed-in users, anyone, or own rows (a text column holds each row's user id). Rules are checked by the database on every query."
      >
        <TablesWithRules tables={list} />
        <CodeSample label="access rules example" title="Own rows for everything" code={code.rules} />
      </Step>
      <Step
        n={4}
        icon={Table2}
        title={`Query ${tableName}`}
        description="Rows a rule hides are simply not there: reads come back empty and updates change 0 rows, as with Postgres row-level security."
      >
        <CodeSample label="select example" title="Read" code={code.select} />
        <CodeSample label="count example" title="Count" code={code.count} />
        <CodeSample label="insert example" title="Add" code={code.insert} />
        <CodeSample label="update example" title="Change" code={code.update} />
        <CodeSample label="delete example" title="Delete" code={code.remove} />
        <EmbedExamples tables={list} url={app.data.url} />
      </Step>
      <Step
        n={5}
        icon={Server}
        title="On your server"
        description="Server code may use the service key: it sees every row and manages users with auth.admin."
      >
        <CodeSample label="server example" title="server.js" code={code.server} />
        <p className="flex gap-2 text-xs text-muted-foreground">
          <TriangleAlert aria-hidden className="size-4 shrink-0 text-warning" />
          Never ship the service key in a browser or a mobile app. Copy it from the API page into your server's
          environment.
        </p>
      </Step>
      <Step
        n={6}
        icon={BookOpen}
        title="When something is refused"
        description="The errors your app will meet, and what they mean."
      >
        <ul className="grid gap-2 text-sm">
          <li>
            <code className="font-mono text-xs">42501</code> — a rule refused a row: an insert into a table whose add
            rule does not let this user, or an owner column naming someone else (401 signed out, 403 signed in).
          </li>
          <li>
            <code className="font-mono text-xs">PGRST116</code> — <code className="font-mono text-xs">.single()</code>{' '}
            found no row (or several): often a row the read rule hides.
          </li>
          <li>
            <code className="font-mono text-xs">invalid_credentials</code>,{' '}
            <code className="font-mono text-xs">email_not_confirmed</code>,{' '}
            <code className="font-mono text-xs">user_banned</code> — sign-in refusals, in{' '}
            <code className="font-mono text-xs">error.code</code>.
          </li>
        </ul>
      </Step>
    </div>
  );
}
