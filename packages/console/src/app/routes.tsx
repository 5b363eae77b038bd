import type { RouteObject } from 'react-router';
import { CenteredSpinner } from '@/components/ui/spinner';
import { RequireAuth } from '@/features/auth/AuthGuards';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { RootLayout } from './RootLayout';
import type { RouteHandle } from './route-handle';
import { AppShell } from './shell/AppShell';

// Every route of spec console-core §2 and console-management §2. Pages load on demand (route `lazy`);
// areas that are not built yet share the ComingSoon page, which reads its name from the route handle.
// To build an area, replace its `area(...)` line with a route whose `lazy` imports the feature's page.

const comingSoon = async () => ({ Component: (await import('./pages/ComingSoonPage')).ComingSoonPage });

function area(path: string, title: string, description?: string): RouteObject {
  const handle: RouteHandle = { title, description };
  return path === '' ? { index: true, handle, lazy: comingSoon } : { path, handle, lazy: comingSoon };
}

function PageLoading() {
  return <CenteredSpinner fullScreen label="Loading page" />;
}

function ProtectedShell() {
  return (
    <RequireAuth>
      <AppShell />
    </RequireAuth>
  );
}

/** routes is the console's route tree. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: PageLoading,
    children: [
      {
        path: 'auth',
        handle: { title: 'Sign in' } satisfies RouteHandle,
        lazy: async () => ({ Component: (await import('@/features/auth/AuthRoute')).AuthRoute }),
      },
      {
        Component: ProtectedShell,
        children: [
          {
            index: true,
            handle: { title: 'Dashboard' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/dashboard/DashboardPage')).DashboardPage }),
          },
          {
            path: 'tables',
            handle: { title: 'Tables' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/tables/TablesPage')).TablesPage }),
          },
          ...['tables/new', 'tables/create'].map(
            (path): RouteObject => ({
              path,
              handle: { title: 'Create Table' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('@/features/tables/CreateTablePage')).CreateTablePage }),
            }),
          ),
          {
            path: 'tables/:id',
            handle: { title: 'Table' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/tables/TableDetailPage')).TableDetailPage }),
          },
          {
            path: 'tables/:id/edit',
            handle: { title: 'Edit Table' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/tables/SchemaEditorPage')).SchemaEditorPage }),
          },
          ...['history', 'history/:tableId'].map(
            (path): RouteObject => ({
              path,
              handle: { title: 'Database History' } satisfies RouteHandle,
              lazy: async () => ({ Component: (await import('@/features/history/HistoryPage')).HistoryPage }),
            }),
          ),
          {
            path: 'api',
            handle: { title: 'API' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/api-page/ApiPage')).ApiPage }),
          },
          {
            path: 'table-api',
            handle: { title: 'Table API' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/api-docs/TableApiPage')).TableApiPage }),
          },
          {
            path: 'record-api',
            handle: { title: 'Record API' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/api-docs/RecordApiPage')).RecordApiPage }),
          },
          {
            // Not /api/reference: paths under /api/ belong to the server (a reload would reach the record API).
            path: 'record-api/reference',
            handle: { title: 'OpenAPI reference' } satisfies RouteHandle,
            lazy: async () => ({
              Component: (await import('@/features/api-docs/OpenApiReferencePage')).OpenApiReferencePage,
            }),
          },
          area('users', 'Users', 'Manage the users of your project.'),
          area('edge-functions', 'Edge Functions', 'Deploy serverless functions next to your data.'),
          area('secrets', 'Secrets', 'Store keys and credentials your functions use.'),
          area('billing', 'Billing', 'Your plan, usage and invoices.'),
          {
            path: 'settings',
            handle: { title: 'Settings' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/settings/SettingsPage')).SettingsPage }),
          },
          {
            path: 'logs',
            handle: { title: 'System Logs' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('@/features/logs/LogsPage')).LogsPage }),
          },
          area('schema-editor', 'Schema Editor', 'Design your schema visually, together.'),
          area('projects/new', 'New Project', 'Create a project for the schema editor.'),
          area('sql-execution', 'SQL Execution', 'Run SQL files or statements against a database.'),
          area('profile', 'Profile', 'Your account details.'),
          area('documentation', 'Documentation', 'Guides and the API reference.'),
          {
            path: '*',
            handle: { title: 'Page Not Found' } satisfies RouteHandle,
            lazy: async () => ({ Component: (await import('./pages/NotFoundPage')).NotFoundPage }),
          },
        ],
      },
    ],
  },
];
