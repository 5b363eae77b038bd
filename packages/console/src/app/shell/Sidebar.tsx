import { SITE_NAME } from '@basalt/shared';
import { ChevronDown } from 'lucide-react';
import { Collapsible, Dialog as DialogPrimitive } from 'radix-ui';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { BrandMark } from '@/components/brand-mark';
import { useAuth } from '@/features/auth/auth-context';
import { initialsOf } from '@/features/auth/auth-user';
import { cn } from '@/lib/cn';
import { DOCUMENTATION_ITEM, isNavItemActive, NAV_GROUPS, type NavItem } from './nav-items';

function SidebarLink({ item }: { item: NavItem }) {
  const location = useLocation();
  const active = isNavItemActive(item, location);
  const Icon = item.icon;
  return (
    <Link
      to={item.to}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring/40',
        active
          ? 'bg-primary/10 font-medium text-primary'
          : 'text-muted-foreground hover:bg-accent hover:text-foreground',
      )}
    >
      <Icon aria-hidden className="size-4 shrink-0" />
      {item.label}
    </Link>
  );
}

function SidebarGroup({ id, label, items }: { id: string; label: string; items: readonly NavItem[] }) {
  const [open, setOpen] = useState(true);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen}>
      <Collapsible.Trigger
        aria-controls={`nav-${id}`}
        className="group flex w-full items-center justify-between rounded-md px-2.5 py-1 text-xs font-medium tracking-wide text-muted-foreground uppercase hover:text-foreground"
      >
        {label}
        <ChevronDown aria-hidden className="size-3.5 transition-transform group-data-[state=closed]:-rotate-90" />
      </Collapsible.Trigger>
      <Collapsible.Content id={`nav-${id}`}>
        <ul className="mt-1 grid gap-0.5">
          {items.map((item) => (
            <li key={item.to}>
              <SidebarLink item={item} />
            </li>
          ))}
        </ul>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

function SidebarContent() {
  const { user } = useAuth();
  const username = user?.username ?? '';
  return (
    <div className="flex h-full flex-col bg-sidebar">
      <Link to="/" className="flex h-14 shrink-0 items-center gap-2 border-b px-4 font-semibold tracking-tight">
        <BrandMark className="size-6" />
        {SITE_NAME}
      </Link>
      <nav aria-label="Main" className="flex-1 space-y-4 overflow-y-auto px-3 py-4">
        {NAV_GROUPS.map((group) => (
          <SidebarGroup key={group.id} {...group} />
        ))}
        <div className="border-t pt-3">
          <SidebarLink item={DOCUMENTATION_ITEM} />
        </div>
      </nav>
      <div data-testid="sidebar-footer" className="flex items-center gap-3 border-t px-4 py-3">
        <span
          aria-hidden
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary"
        >
          {initialsOf(username) || '?'}
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{username}</p>
          <p className="truncate text-xs text-muted-foreground">{user?.email}</p>
        </div>
      </div>
    </div>
  );
}

/** Sidebar is a column beside the page on desktop (768 px and wider) and a slide-over on phones. */
export function Sidebar({
  mobileOpen,
  onMobileOpenChange,
}: {
  mobileOpen: boolean;
  onMobileOpenChange: (open: boolean) => void;
}) {
  return (
    <>
      <aside aria-label="Sidebar" className="hidden border-r bg-sidebar md:block">
        {/* The column runs the page's whole height; its content stays in view, footer included, as it scrolls. */}
        <div className="sticky top-0 h-dvh">
          <SidebarContent />
        </div>
      </aside>
      <DialogPrimitive.Root open={mobileOpen} onOpenChange={onMobileOpenChange}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/50 data-[state=open]:animate-fade-in md:hidden" />
          <DialogPrimitive.Content
            aria-describedby={undefined}
            className="fixed top-[var(--toast-bottom,0px)] bottom-0 left-0 z-50 w-72 max-w-[85vw] border-r shadow-xl outline-none data-[state=open]:animate-slide-in-left md:hidden"
          >
            <DialogPrimitive.Title className="sr-only">Navigation</DialogPrimitive.Title>
            <SidebarContent />
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    </>
  );
}
