import { CircleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** NotFoundPage answers any path the router does not know. */
export function NotFoundPage() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-3 pt-6 sm:pt-6">
          <div className="flex items-center gap-2">
            <CircleAlert aria-hidden className="size-6 text-destructive" />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">
            There is no page at this address. It may have moved, or the link may be mistyped.
          </p>
          <Button asChild variant="outline" className="mt-2 w-fit">
            <Link to="/">Go to the dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
