import { SITE_NAME } from '@basalt/shared';
import { useEffect } from 'react';
import { useMatches } from 'react-router';

/** RouteHandle is the `handle` of a console route: the page title. */
export interface RouteHandle {
  title: string;
}

/** isRouteHandle narrows a route's handle. */
export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'title' in value && typeof value.title === 'string';
}

/** useRouteHandle returns the handle of the deepest matched route that has one. */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return undefined;
}

/** documentTitle is "Page | Basalt", or the product name alone. */
export function documentTitle(page: string | undefined): string {
  return page ? `${page} | ${SITE_NAME}` : SITE_NAME;
}

/** DocumentTitle keeps the browser tab's title in step with the current route. */
export function DocumentTitle() {
  const title = useRouteHandle()?.title;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  return null;
}
