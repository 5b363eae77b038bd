import { Activity, CircleHelp, Code2, LayoutGrid, Sparkles } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { ApiStepBody, HelpStepBody, MonitorStepBody, TablesStepBody, WelcomeStepBody } from './OnboardingStepBodies';

/** OnboardingStep is one page of the guide. */
export interface OnboardingStep {
  id: 'welcome' | 'tables' | 'api' | 'monitor' | 'help';
  title: string;
  description: string;
  icon: ComponentType<{ className?: string }>;
  content: ReactNode;
}

/** ONBOARDING_STEPS are the guide's five steps, in order. */
export const ONBOARDING_STEPS: readonly OnboardingStep[] = [
  {
    id: 'welcome',
    title: 'Welcome to Basalt',
    description: 'Your backend, without writing server code.',
    icon: Sparkles,
    content: <WelcomeStepBody />,
  },
  {
    id: 'tables',
    title: 'Create your first table',
    description: 'Tables hold your app’s data, one column per kind of value.',
    icon: LayoutGrid,
    content: <TablesStepBody />,
  },
  {
    id: 'api',
    title: 'Use your instant API',
    description: 'Every table gets REST endpoints the moment it exists.',
    icon: Code2,
    content: <ApiStepBody />,
  },
  {
    id: 'monitor',
    title: 'Monitor and manage',
    description: 'Watch activity, undo changes and fine-tune your project.',
    icon: Activity,
    content: <MonitorStepBody />,
  },
  {
    id: 'help',
    title: 'Help is always close',
    description: 'Reopen this guide or look up a term whenever you need to.',
    icon: CircleHelp,
    content: <HelpStepBody />,
  },
];
