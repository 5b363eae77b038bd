import { CloudOff, RefreshCw } from 'lucide-react';
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { PageLoadError } from '../page-load';
import { ErrorFallback } from '../shell/ErrorFallback';

/**
 * PageLoadFailed stands in for a page whose code did not download, most often because the server cannot be
 * reached. Try Again loads the page anew once the connection is back.
 */
function PageLoadFailed() {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <div className="flex min-h-[50vh] items-center justify-center p-4">
      <Card role="alert" className="w-full max-w-md">
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <CloudOff aria-hidden className="size-5" />
          </div>
          <CardTitle>This page could not be loaded</CardTitle>
          <CardDescription>
            The console could not reach the server to open this page. Check your connection, then try again.
          </CardDescription>
        </CardHeader>
        <CardFooter>
          {/* Going to the same address again runs the page's download again. */}
          <Button onClick={() => navigate(location, { replace: true })}>
            <RefreshCw />
            Try Again
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}

/** RouteErrorPage is the router's error element: a page that could not load, or the render-error card. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (error instanceof PageLoadError) return <PageLoadFailed />;
  const shown = isRouteErrorResponse(error) ? new Error(`${error.status} ${error.statusText}`) : error;
  // A fresh load fetches the page's code again (a new deployment may have replaced the old chunk).
  return <ErrorFallback error={shown} onReset={() => window.location.reload()} />;
}
