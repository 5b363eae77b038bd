import { CircleHelp, History, LayoutDashboard, ScrollText, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { Glossary } from './Glossary';

function Tip({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-primary/20 bg-primary/5 p-3 text-sm">{children}</p>;
}

function Kbd({ children }: { children: ReactNode }) {
  return (
    <span className="rounded-md border bg-muted px-1.5 py-0.5 font-mono text-xs font-medium whitespace-nowrap">
      {children}
    </span>
  );
}

/** WelcomeStepBody introduces the product. */
export function WelcomeStepBody() {
  return (
    <div className="grid gap-4 text-sm">
      <p>
        Basalt gives your app a database, sign-in and a REST API without writing server code. In the next few steps you
        will see how to create a table, call its API and keep an eye on your project.
      </p>
      <ul className="grid gap-2 sm:grid-cols-3">
        {['Design tables with typed columns', 'Get REST endpoints instantly', 'Track every change'].map((t) => (
          <li key={t} className="rounded-lg border bg-muted/40 p-3 font-medium">
            {t}
          </li>
        ))}
      </ul>
      <Tip>New to backends? The last step has a glossary that explains terms like API, schema and JWT.</Tip>
    </div>
  );
}

/**
 * EXAMPLE_TABLE is the table the steps show: a name a table may take (`users` is Basalt's own route), with
 * columns of real types, so following the steps as written works.
 */
export const EXAMPLE_TABLE = { name: 'customers', title: 'Customers', singular: 'customer' } as const;

export const EXAMPLE_COLUMNS = [
  { name: 'name', type: 'text' },
  { name: 'email', type: 'text' },
  { name: 'joined_date', type: 'date' },
  { name: 'is_active', type: 'boolean' },
] as const;

/** TablesStepBody explains tables with the example table. */
export function TablesStepBody() {
  return (
    <div className="grid gap-4 text-sm">
      <p>
        Open the <strong>Tables</strong> section in the sidebar and click <Kbd>+ New Table</Kbd>. Give the table a name,
        then add a column for each piece of information you want to store.
      </p>
      <figure className="overflow-hidden rounded-lg border">
        <figcaption className="border-b bg-muted/50 px-3 py-2 text-xs font-medium">
          Example table: <span className="font-semibold">{EXAMPLE_TABLE.title}</span>
        </figcaption>
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">Column</th>
              <th className="px-3 py-2 font-medium">Type</th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {EXAMPLE_COLUMNS.map((c) => (
              <tr key={c.name}>
                <td className="px-3 py-2 font-mono text-xs">{c.name}</td>
                <td className="px-3 py-2">
                  <span className="rounded bg-secondary px-1.5 py-0.5 text-xs">{c.type}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </figure>
      <p className="text-muted-foreground">Every table also gets an id column automatically.</p>
    </div>
  );
}

const base = `/api/${EXAMPLE_TABLE.name}`;
const one = EXAMPLE_TABLE.singular;
export const EXAMPLE_ENDPOINTS = [
  { method: 'GET', path: base, does: `List all ${EXAMPLE_TABLE.name}` },
  { method: 'POST', path: base, does: `Add a ${one}` },
  { method: 'GET', path: `${base}/{id}`, does: `Read one ${one}` },
  { method: 'PATCH', path: `${base}/{id}`, does: `Update a ${one}` },
  { method: 'DELETE', path: `${base}/{id}`, does: `Delete a ${one}` },
] as const;

/** ApiStepBody lists the generated endpoints of the example table. */
export function ApiStepBody() {
  return (
    <div className="grid gap-4 text-sm">
      <p>As soon as the {EXAMPLE_TABLE.title} table exists, your app can use these endpoints:</p>
      <ul className="divide-y overflow-hidden rounded-lg border font-mono text-xs">
        {EXAMPLE_ENDPOINTS.map((e) => (
          <li key={`${e.method} ${e.path}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
            <span className="w-14 font-semibold text-primary">{e.method}</span>
            <span className="flex-1">{e.path}</span>
            <span className="font-sans text-muted-foreground">{e.does}</span>
          </li>
        ))}
      </ul>
      <Tip>
        Create an API key on the <strong>API</strong> page and send it as a bearer token. Keys are shown only once.
      </Tip>
    </div>
  );
}

const MONITOR_ITEMS = [
  { icon: LayoutDashboard, title: 'Dashboard', text: 'Requests, storage and your tables at a glance.' },
  { icon: History, title: 'History', text: 'See every change, revert one, or restore a checkpoint.' },
  { icon: ScrollText, title: 'Logs', text: 'What the server did, filterable by level.' },
  { icon: Settings, title: 'Settings', text: 'The Settings page holds advanced options: profile, theme, database.' },
] as const;

/** MonitorStepBody points to the dashboard, history, logs and the Settings page. */
export function MonitorStepBody() {
  return (
    <ul className="grid gap-3 text-sm sm:grid-cols-2">
      {MONITOR_ITEMS.map(({ icon: Icon, title, text }) => (
        <li key={title} className="flex gap-3 rounded-lg border p-3">
          <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
          <div>
            <p className="font-medium">{title}</p>
            <p className="text-muted-foreground">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** HelpStepBody explains the help button and the Help menu, and holds the glossary. */
export function HelpStepBody() {
  return (
    <div className="grid gap-4 text-sm">
      <p className="flex gap-2">
        <CircleHelp aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <span>
          The help button at the bottom right opens the <strong>Help</strong> menu: the Help Center with tips and common
          tasks, and <strong>Show Onboarding</strong> to reopen this guide any time.
        </span>
      </p>
      <Glossary />
    </div>
  );
}
