import {
  BookKey,
  Braces,
  Code2,
  CreditCard,
  DatabaseZap,
  FileCode2,
  HardDrive,
  History,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  ScrollText,
  Settings,
  ShieldCheck,
  SquareFunction,
  Table2,
  Users,
  Zap,
} from 'lucide-react';

/** NavItem is one sidebar link. */
export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** NavGroup is a collapsible sidebar section. */
export interface NavGroup {
  id: string;
  label: string;
  items: readonly NavItem[];
}

/** NAV_GROUPS are the sidebar's sections. */
export const NAV_GROUPS: readonly NavGroup[] = [
  {
    id: 'core',
    label: 'Core',
    items: [
      { label: 'Dashboard', to: '/', icon: LayoutDashboard },
      { label: 'Tables', to: '/tables', icon: Table2 },
      { label: 'Storage', to: '/storage', icon: HardDrive },
      { label: 'Schema Editor', to: '/schema-editor', icon: DatabaseZap },
      { label: 'Users', to: '/users', icon: Users },
    ],
  },
  {
    id: 'developer',
    label: 'Developer',
    items: [
      { label: 'Edge Functions', to: '/edge-functions', icon: Zap },
      { label: 'SQL Functions', to: '/sql-functions', icon: SquareFunction },
      { label: 'Secrets', to: '/secrets', icon: KeyRound },
      { label: 'API', to: '/api', icon: Code2 },
      // The spec has no route of its own for Authentication; sign-in settings (password) live in the
      // Account tab of Settings, so the item is a shortcut to that tab (and Settings stays the highlighted item).
      { label: 'Authentication', to: '/settings?tab=account', icon: ShieldCheck },
      { label: 'Table API', to: '/table-api', icon: Braces },
      { label: 'Record API', to: '/record-api', icon: FileCode2 },
    ],
  },
  {
    id: 'management',
    label: 'Management',
    items: [
      { label: 'History', to: '/history', icon: History },
      { label: 'Billing', to: '/billing', icon: CreditCard },
      { label: 'Settings', to: '/settings', icon: Settings },
      { label: 'Logs', to: '/logs', icon: ScrollText },
    ],
  },
];

/** DOCUMENTATION_ITEM is the sidebar's link to the docs. */
export const DOCUMENTATION_ITEM: NavItem = { label: 'Documentation', to: '/documentation', icon: BookKey };

/**
 * isNavItemActive says whether a sidebar item matches the current location: the item of the page, or of the
 * page's parent (Tables on /tables/7). An item with a query (Authentication's /settings?tab=account) is a
 * shortcut into another item's page, and that page's own item is the one highlighted, whatever its tab.
 */
export function isNavItemActive(item: NavItem, location: { pathname: string }): boolean {
  if (item.to.includes('?')) return false;
  if (item.to === '/') return location.pathname === '/';
  return location.pathname === item.to || location.pathname.startsWith(`${item.to}/`);
}

/** findNavItem returns the first item whose label contains the text (the top bar's page search). */
export function findNavItem(text: string): NavItem | undefined {
  const q = text.trim().toLowerCase();
  if (!q) return undefined;
  const all = [...NAV_GROUPS.flatMap((g) => g.items), DOCUMENTATION_ITEM];
  return all.find((i) => i.label.toLowerCase() === q) ?? all.find((i) => i.label.toLowerCase().includes(q));
}
