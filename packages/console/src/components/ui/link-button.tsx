import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** LinkButton is a small outline button that goes to another page: the links in page headers and cards. */
export function LinkButton({
  to,
  icon: Icon,
  className,
  children,
}: {
  to: string;
  icon: LucideIcon;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button asChild variant="outline" size="sm" className={className}>
      <Link to={to}>
        <Icon />
        {children}
      </Link>
    </Button>
  );
}
