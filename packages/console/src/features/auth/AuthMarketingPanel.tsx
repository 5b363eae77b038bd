import { Code2, Database, ShieldCheck, Zap } from 'lucide-react';

const FEATURES = [
  {
    icon: ShieldCheck,
    title: 'Authentication Ready',
    description: 'Email and password sign-in with secure sessions, out of the box.',
  },
  {
    icon: Database,
    title: 'Dynamic Database Tables',
    description: 'Define tables with typed columns in a few clicks, no SQL required.',
  },
  {
    icon: Zap,
    title: 'Instant REST APIs',
    description: 'Every table gets REST endpoints the moment you create it.',
  },
  {
    icon: Code2,
    title: 'Developer Experience',
    description: 'Works with the official Supabase client, API keys and clear docs.',
  },
] as const;

/** AuthMarketingPanel lists the product's four headline features (large screens only). */
export function AuthMarketingPanel() {
  return (
    <aside className="relative hidden overflow-hidden border-l bg-zinc-950 text-zinc-100 lg:flex lg:flex-col lg:justify-center lg:px-14 xl:px-20">
      <div
        aria-hidden
        className="pointer-events-none absolute -top-40 -right-40 size-[32rem] rounded-full bg-emerald-500/15 blur-3xl"
      />
      <div className="relative max-w-md">
        <p className="text-sm font-medium text-emerald-400">Build faster</p>
        <h2 className="mt-2 text-3xl font-semibold tracking-tight">Everything your app needs from a backend</h2>
        <p className="mt-3 text-zinc-400">Self-hosted, one command to run, and yours to keep.</p>
        <ul className="mt-10 grid gap-6">
          {FEATURES.map(({ icon: Icon, title, description }) => (
            <li key={title} className="flex gap-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-emerald-500/10 text-emerald-400 ring-1 ring-emerald-500/20">
                <Icon className="size-5" />
              </span>
              <div>
                <h3 className="font-medium">{title}</h3>
                <p className="mt-0.5 text-sm text-zinc-400">{description}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
}
