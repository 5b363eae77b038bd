import { CalendarDays, KeyRound, Mail, Palette, Settings, ShieldCheck, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { formatDate, formatRelativeTime } from '@/components/ui/relative-time';
import { useAuth } from '@/features/auth/auth-context';
import { initialsOf } from '@/features/auth/auth-user';
import { AchievementsCard } from './AchievementsCard';

const LINKS = [
  { to: '/settings', label: 'Edit profile', description: 'Username, email and marketing emails', icon: UserRound },
  {
    to: '/settings?tab=account',
    label: 'Password and account',
    description: 'Change your password or delete the account',
    icon: KeyRound,
  },
  {
    to: '/settings?tab=appearance',
    label: 'Appearance',
    description: 'Light, dark or the system theme',
    icon: Palette,
  },
] as const;

/** ProfilePage is /profile: the signed-in account — initials, username, email, member since — and links to Settings. */
export function ProfilePage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Profile"
        description="Your Basalt account."
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/settings">
              <Settings />
              Settings
            </Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="flex flex-col items-start gap-4 pt-6 sm:flex-row sm:items-center">
          <span
            aria-hidden
            className="flex size-16 shrink-0 items-center justify-center rounded-full bg-primary text-xl font-semibold text-primary-foreground"
          >
            {initialsOf(user.username)}
          </span>
          <div className="grid min-w-0 gap-1">
            <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold break-all">
              {user.username}
              {user.isAdmin && (
                <Badge>
                  <ShieldCheck />
                  Administrator
                </Badge>
              )}
            </h2>
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground break-all">
              <Mail aria-hidden className="size-4 shrink-0" />
              {user.email}
            </p>
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
              <CalendarDays aria-hidden className="size-4 shrink-0" />
              <span>
                Member since <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
                <span className="hidden sm:inline"> ({formatRelativeTime(user.createdAt)})</span>
              </span>
            </p>
          </div>
        </CardContent>
      </Card>
      <AchievementsCard />
      <Card>
        <CardHeader>
          <CardTitle>Settings</CardTitle>
          <CardDescription>Everything about your account is changed in Settings.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2 sm:grid-cols-3">
          {LINKS.map(({ to, label, description, icon: Icon }) => (
            <Link
              key={to}
              to={to}
              className="flex items-start gap-3 rounded-lg border p-3 transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">{label}</span>
                <span className="text-xs text-muted-foreground">{description}</span>
              </span>
            </Link>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}
