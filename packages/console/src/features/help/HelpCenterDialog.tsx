import { ArrowRight, BookOpen, Code2, Lightbulb, Rocket, Settings, Table2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

const QUICK_TIPS = [
  'Use the sidebar to move between areas; on a phone, open it with the menu button.',
  'Every table you create gets REST endpoints immediately; see them on the API page.',
  'Undo (bottom right) takes back your last revert or restore in History.',
  'Switch between light and dark with the sun and moon button in the top bar.',
] as const;

const COMMON_TASKS = [
  { to: '/tables', icon: Table2, title: 'Manage tables', text: 'Create tables and edit their records.' },
  { to: '/api', icon: Code2, title: 'API keys and endpoints', text: 'Create keys and browse your endpoints.' },
  { to: '/settings', icon: Settings, title: 'Settings', text: 'Profile, password, theme and database.' },
  { to: '/documentation', icon: BookOpen, title: 'Documentation', text: 'Guides and the full API reference.' },
] as const;

/** HelpCenterDialog offers getting-started help, quick tips and shortcuts to common tasks. */
export function HelpCenterDialog({
  open,
  onOpenChange,
  onRestartOnboarding,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRestartOnboarding: () => void;
}) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Help Center</DialogTitle>
          <DialogDescription>Everything you need to get going with Basalt.</DialogDescription>
        </DialogHeader>

        <section aria-labelledby="help-getting-started" className="rounded-lg border bg-muted/40 p-4">
          <h3 id="help-getting-started" className="flex items-center gap-2 text-sm font-semibold">
            <Rocket aria-hidden className="size-4 text-primary" />
            Getting Started
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">
            New here, or want a refresher? The onboarding guide walks through tables, the API and monitoring.
          </p>
          <Button variant="link" className="mt-1 text-sm" onClick={onRestartOnboarding}>
            Restart Onboarding Guide
          </Button>
        </section>

        <section aria-labelledby="help-quick-tips">
          <h3 id="help-quick-tips" className="flex items-center gap-2 text-sm font-semibold">
            <Lightbulb aria-hidden className="size-4 text-primary" />
            Quick Tips
          </h3>
          <ul className="mt-2 grid gap-1.5 text-sm text-muted-foreground">
            {QUICK_TIPS.map((tip) => (
              <li key={tip} className="flex gap-2">
                <span aria-hidden className="mt-2 size-1 shrink-0 rounded-full bg-muted-foreground" />
                {tip}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="help-common-tasks">
          <h3 id="help-common-tasks" className="text-sm font-semibold">
            Common Tasks
          </h3>
          <ul className="mt-2 grid gap-2 sm:grid-cols-2">
            {COMMON_TASKS.map(({ to, icon: Icon, title, text }) => (
              <li key={to}>
                <Link
                  to={to}
                  onClick={close}
                  className="group flex h-full items-start gap-3 rounded-lg border bg-card p-3 transition-colors hover:border-primary/40 hover:bg-accent/50"
                >
                  <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-medium">{title}</span>
                    <span className="block text-xs text-muted-foreground">{text}</span>
                  </span>
                  <ArrowRight
                    aria-hidden
                    className="mt-0.5 size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
                  />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </DialogContent>
    </Dialog>
  );
}
