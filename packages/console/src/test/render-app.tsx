import type { ConsoleConfig } from '@basalt/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { routes } from '@/app/routes';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { ConfigProvider } from '@/lib/config';
import { createQueryClient } from '@/lib/query-client';
import { ThemeProvider } from '@/lib/theme-provider';

/** testConfig is the instance configuration renderApp provides (a SQLite instance without mail). */
export const testConfig: ConsoleConfig = {
  siteName: 'Basalt',
  anonKey: 'anon-key',
  databaseType: 'sqlite',
  mailConfigured: false,
  version: '0.1.0',
  signupsAllowed: true,
  termsUrl: 'https://example.com/terms',
  siteUrl: null,
};

/** renderApp renders the console's real route tree at `path` in memory, with the app's providers. */
export function renderApp(path: string, config: ConsoleConfig = testConfig) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <ConfigProvider config={config}>
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <TooltipProvider>
            <RouterProvider router={router} />
            <Toaster />
          </TooltipProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </ConfigProvider>,
  );
  return { ...view, router, queryClient };
}
