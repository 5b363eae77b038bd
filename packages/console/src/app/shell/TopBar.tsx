import { SITE_NAME, type TableResponse } from '@basalt/shared';
import { Menu, Plus, Search } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { BrandMark } from '@/components/brand-mark';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ToastRoom } from '@/components/ui/toaster';
import { useApiTablesQuery } from '@/features/tables/tables.queries';
import { AccountMenu } from './AccountMenu';
import { NotificationsMenu } from './NotificationsMenu';
import { findNavItem, NAV_GROUPS } from './nav-items';
import { ThemeToggle } from './ThemeToggle';

/** findTable returns the table named by the text: the same name (any case), else the first containing it. */
function findTable(tables: readonly TableResponse[], text: string): TableResponse | undefined {
  const q = text.trim().toLowerCase();
  if (!q) return undefined;
  return tables.find((t) => t.name.toLowerCase() === q) ?? tables.find((t) => t.name.toLowerCase().includes(q));
}

/** PageSearch jumps to the console page, or the table, whose name is typed (desktop only). */
function PageSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  // The account's tables are read once the search is used, not on every page of the console.
  const [used, setUsed] = useState(false);
  const tables = useApiTablesQuery({ enabled: used }).data ?? [];
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is still unknown to some browsers and test DOMs.
    <form
      role="search"
      className="relative hidden w-full max-w-xs md:block"
      onSubmit={(e) => {
        e.preventDefault();
        const q = text.trim().toLowerCase();
        // A page of that exact name first, then a table of that exact name, then whatever contains the text.
        const page = findNavItem(text);
        const table = findTable(tables, text);
        const exactPage = page && page.label.toLowerCase() === q;
        const target = exactPage ? page.to : table ? `/tables/${table.id}` : page?.to;
        if (!target) return;
        navigate(target);
        setText('');
      }}
    >
      <Search aria-hidden className="absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        aria-label="Search"
        placeholder="Search pages and tables..."
        list="console-pages"
        className="h-8 bg-muted/50 pl-8"
        value={text}
        onFocus={() => setUsed(true)}
        onChange={(e) => setText(e.target.value)}
      />
      <datalist id="console-pages">
        {NAV_GROUPS.flatMap((g) => g.items).map((item) => (
          <option key={item.to} value={item.label} />
        ))}
        {tables.map((table) => (
          <option key={`table-${table.id}`} value={table.name} label={`Table ${table.name}`} />
        ))}
      </datalist>
    </form>
  );
}

/**
 * TopBar holds the mobile menu button, page search, theme toggle, New Project and the menus; under it, sticky with
 * it, the room a showing toast takes, so that the page moves down instead of under the toast.
 */
export function TopBar({ onOpenSidebar }: { onOpenSidebar: () => void }) {
  return (
    <div className="sticky top-0 z-20">
      <TopBarRow onOpenSidebar={onOpenSidebar} />
      <ToastRoom className="bg-background" />
    </div>
  );
}

function TopBarRow({ onOpenSidebar }: { onOpenSidebar: () => void }) {
  return (
    <header className="flex h-14 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur sm:px-4 md:px-6">
      <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation" onClick={onOpenSidebar}>
        <Menu />
      </Button>
      <Link to="/" aria-label={SITE_NAME} className="md:hidden">
        <BrandMark className="size-6" />
      </Link>
      <PageSearch />
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <ThemeToggle />
        <Button asChild size="sm" className="h-8">
          <Link to="/projects/new" aria-label="New Project">
            <Plus />
            <span className="hidden sm:inline">New Project</span>
          </Link>
        </Button>
        <NotificationsMenu />
        <AccountMenu />
      </div>
    </header>
  );
}
