import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorFallback } from '../shell/ErrorFallback';

/** RouteErrorPage is the router's error element, e.g. when a page's code fails to download. */
export function RouteErrorPage() {
  const error = useRouteError();
  const shown = isRouteErrorResponse(error) ? new Error(`${error.status} ${error.statusText}`) : error;
  // A fresh load fetches the page's code again (a new deployment may have replaced the old chunk).
  return <ErrorFallback error={shown} onReset={() => window.location.reload()} />;
}
