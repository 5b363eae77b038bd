import type { RouteObject } from 'react-router';
import { CenteredSpinner } from '@/components/ui/spinner';
import { RequireAuth } from '@/features/auth/AuthGuards';
import { lazyPage } from './page-load';
import { RouteErrorPage } from './pages/RouteErrorPage';
import { RootLayout } from './RootLayout';
import type { RouteHandle } from './route-handle';
import { AppShell } from './shell/AppShell';

// Every route of the console. Pages load on demand (route `lazy`).

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

/** shellPages are the signed-in pages, shown inside the shell. */
const shellPages: RouteObject[] = [
  {
    index: true,
    handle: { title: 'Dashboard' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/dashboard/DashboardPage')).DashboardPage),
  },
  {
    path: 'tables',
    handle: { title: 'Tables' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/tables/TablesPage')).TablesPage),
  },
  ...['tables/new', 'tables/create'].map(
    (path): RouteObject => ({
      path,
      handle: { title: 'Create Table' } satisfies RouteHandle,
      lazy: lazyPage(async () => (await import('@/features/tables/CreateTablePage')).CreateTablePage),
    }),
  ),
  {
    path: 'tables/:id',
    handle: { title: 'Table' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/tables/TableDetailPage')).TableDetailPage),
  },
  {
    path: 'tables/:id/edit',
    handle: { title: 'Edit Table' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/tables/TableSchemaEditPage')).TableSchemaEditPage),
  },
  {
    path: 'tables/:id/rows/:rowId',
    handle: { title: 'Row' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/records/RecordPage')).RecordPage),
  },
  ...['history', 'history/:tableId'].map(
    (path): RouteObject => ({
      path,
      handle: { title: 'Database History' } satisfies RouteHandle,
      lazy: lazyPage(async () => (await import('@/features/history/HistoryPage')).HistoryPage),
    }),
  ),
  {
    path: 'api',
    handle: { title: 'API' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/api-docs/ApiPage')).ApiPage),
  },
  {
    path: 'table-api',
    handle: { title: 'Table API' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/api-docs/TableApiPage')).TableApiPage),
  },
  {
    path: 'record-api',
    handle: { title: 'Record API' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/api-docs/RecordApiPage')).RecordApiPage),
  },
  {
    // Not /api/reference: paths under /api/ belong to the server (a reload would reach the record API).
    path: 'record-api/reference',
    handle: { title: 'OpenAPI reference' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/api-docs/OpenApiReferencePage')).OpenApiReferencePage),
  },
  {
    path: 'users',
    handle: { title: 'Users' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/users/UsersPage')).UsersPage),
  },
  {
    path: 'edge-functions',
    handle: { title: 'Edge Functions' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/functions/EdgeFunctionsPage')).EdgeFunctionsPage),
  },
  {
    path: 'sql-functions',
    handle: { title: 'SQL Functions' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/sql-functions/SqlFunctionsPage')).SqlFunctionsPage),
  },
  {
    path: 'storage',
    handle: { title: 'Storage' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/storage/StoragePage')).StoragePage),
  },
  {
    path: 'secrets',
    handle: { title: 'Secrets' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/secrets/SecretsPage')).SecretsPage),
  },
  {
    path: 'billing',
    handle: { title: 'Billing' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/billing/BillingPage')).BillingPage),
  },
  {
    path: 'settings',
    handle: { title: 'Settings' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/settings/SettingsPage')).SettingsPage),
  },
  {
    path: 'logs',
    handle: { title: 'System Logs' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/logs/LogsPage')).LogsPage),
  },
  {
    path: 'schema-editor',
    handle: { title: 'Schema Editor' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/schema-editor/SchemaEditorPage')).SchemaEditorPage),
  },
  {
    path: 'projects/new',
    handle: { title: 'New Project' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/projects/NewProjectPage')).NewProjectPage),
  },
  {
    path: 'projects/:id/settings',
    handle: { title: 'Project Settings' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/projects/ProjectSettingsPage')).ProjectSettingsPage),
  },
  {
    path: 'sql-execution',
    handle: { title: 'SQL Execution' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/sql/SqlExecutionPage')).SqlExecutionPage),
  },
  {
    path: 'profile',
    handle: { title: 'Profile' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/profile/ProfilePage')).ProfilePage),
  },
  {
    path: 'documentation',
    handle: { title: 'Documentation' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('@/features/api-docs/DocumentationPage')).DocumentationPage),
  },
  {
    path: '*',
    handle: { title: 'Page Not Found' } satisfies RouteHandle,
    lazy: lazyPage(async () => (await import('./pages/NotFoundPage')).NotFoundPage),
  },
];

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
        lazy: lazyPage(async () => (await import('@/features/auth/AuthRoute')).AuthRoute),
      },
      {
        path: 'reset-password',
        handle: { title: 'Set a new password' } satisfies RouteHandle,
        lazy: lazyPage(async () => (await import('@/features/auth/ResetPasswordPage')).ResetPasswordPage),
      },
      {
        path: 'terms',
        handle: { title: 'Terms and conditions' } satisfies RouteHandle,
        lazy: lazyPage(async () => (await import('@/features/auth/TermsPage')).TermsPage),
      },
      {
        Component: ProtectedShell,
        children: [
          {
            // A page that cannot load (or fails outside the shell's own boundary) shows its error in the content
            // area: the sidebar and top bar stay, so the person can still go elsewhere.
            ErrorBoundary: RouteErrorPage,
            children: shellPages,
          },
        ],
      },
    ],
  },
];
