import type { ConsoleConfig } from '@basalt/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { ConnectionBanner } from '@/features/connection/ConnectionBanner';
import { ConfigProvider } from '@/lib/config';
import { createQueryClient } from '@/lib/query-client';
import { routes } from './routes';

/** App is the console once its configuration is loaded: data, tooltips, routes, toasts and the banner. */
export function App({ config }: { config: ConsoleConfig }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <ConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <RouterProvider router={router} />
          <Toaster />
          <ConnectionBanner />
        </TooltipProvider>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
