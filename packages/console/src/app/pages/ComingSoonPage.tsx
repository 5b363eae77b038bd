import { Hammer } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useRouteHandle } from '../route-handle';

/** ComingSoonPage stands in for an area that is not built yet; its name comes from the route handle. */
export function ComingSoonPage() {
  const handle = useRouteHandle();
  const area = handle?.title ?? 'This page';
  const onDashboard = useLocation().pathname === '/';
  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">{area}</h1>
        {handle?.description && <p className="mt-1 text-sm text-muted-foreground">{handle.description}</p>}
      </header>
      <Card className="border-dashed">
        <CardContent className="flex flex-col items-center gap-3 py-14 text-center sm:py-20">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Hammer className="size-5" />
          </span>
          <h2 className="text-base font-semibold">{area} — this area is being built</h2>
          <p className="max-w-md text-sm text-muted-foreground">
            It is coming in an upcoming release of Basalt. Meanwhile, the rest of the console is a click away in the
            sidebar.
          </p>
          <Button asChild variant="outline" size="sm" className="mt-2">
            {onDashboard ? <Link to="/tables">Go to Tables</Link> : <Link to="/">Back to the dashboard</Link>}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
