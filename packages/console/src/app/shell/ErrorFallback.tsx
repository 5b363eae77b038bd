import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

/** ErrorFallback is the render-error card, with the stacks behind Show Details. */
export function ErrorFallback({
  error,
  componentStack,
  onReset,
}: {
  error: unknown;
  componentStack?: string;
  onReset: () => void;
}) {
  const [showDetails, setShowDetails] = useState(false);
  const message = error instanceof Error && error.message ? error.message : 'An unexpected error occurred';
  const stack = error instanceof Error ? error.stack : undefined;
  return (
    <div className="flex min-h-[50vh] items-center justify-center p-4">
      <Card role="alert" className="w-full max-w-lg">
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-destructive/10 text-destructive">
            <TriangleAlert className="size-5" />
          </div>
          <CardTitle>Something went wrong</CardTitle>
          <CardDescription className="break-words">{message}</CardDescription>
        </CardHeader>
        {showDetails && (
          <CardContent className="grid gap-3">
            {stack && (
              <div>
                <p className="mb-1 text-xs font-medium text-muted-foreground">Error stack</p>
                <pre className="max-h-48 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">
                  {stack}
                </pre>
              </div>
            )}
            {componentStack && (
              <div>
                <p className="mb-1 text-xs font-medium text-muted-foreground">Component stack</p>
                <pre className="max-h-48 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">
                  {componentStack.trim()}
                </pre>
              </div>
            )}
          </CardContent>
        )}
        <CardFooter>
          <Button onClick={onReset}>Try Again</Button>
          <Button variant="ghost" onClick={() => setShowDetails((v) => !v)} aria-expanded={showDetails}>
            {showDetails ? 'Hide Details' : 'Show Details'}
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
