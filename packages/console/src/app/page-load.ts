import type { ComponentType } from 'react';
import { reportNetworkSignal } from '@/lib/network-signals';

// Pages download their code on first visit. When that download fails the page cannot show, but the shell
// around it can: the route's error element says so in the content area, and the connection monitor is asked
// to check the server, since a lost connection is the likely cause.

/** PageLoadError is a page whose code could not be loaded. */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    super('The page could not be loaded', { cause });
    this.name = 'PageLoadError';
  }
}

/** lazyPage is a route's `lazy` for a page component: a failed load becomes a PageLoadError. */
export function lazyPage(load: () => Promise<ComponentType>): () => Promise<{ Component: ComponentType }> {
  return async () => {
    try {
      return { Component: await load() };
    } catch (error) {
      reportNetworkSignal('doubt');
      throw new PageLoadError(error);
    }
  };
}
