import { Check } from 'lucide-react';
import { useState } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import { ONBOARDING_STEPS } from './onboarding-steps';
import { useOnboardingSteps } from './useOnboardingSteps';

/** SKIP_CONFIRMATION is the question asked before skipping. */
export const SKIP_CONFIRMATION =
  'Are you sure you want to skip the onboarding guide? You can always access it later from the Help menu.';

/** OnboardingDialog is the five-step guide; only Get Started! or a confirmed Skip close it. */
export function OnboardingDialog({
  open,
  onFinish,
  onSkip,
}: {
  open: boolean;
  onFinish: () => void;
  onSkip: () => void;
}) {
  const stepper = useOnboardingSteps(ONBOARDING_STEPS.length);
  const [confirmSkip, setConfirmSkip] = useState(false);
  const step = ONBOARDING_STEPS[stepper.index] ?? ONBOARDING_STEPS[0];
  if (!step) return null;
  const Icon = step.icon;

  return (
    <Dialog open={open}>
      <DialogContent
        hideClose
        className="max-w-2xl gap-0 p-0 sm:p-0"
        onInteractOutside={(e) => e.preventDefault()}
        onEscapeKeyDown={(e) => {
          e.preventDefault();
          setConfirmSkip(true);
        }}
      >
        <div className="border-b px-5 pt-5 pb-4 sm:px-6">
          <ol aria-label="Onboarding steps" className="mb-5 flex items-center gap-1.5">
            {ONBOARDING_STEPS.map((s, i) => {
              const done = stepper.completed.has(i);
              const current = i === stepper.index;
              return (
                <li key={s.id} className="flex flex-1 items-center gap-1.5 last:flex-none">
                  <button
                    type="button"
                    onClick={() => stepper.goTo(i)}
                    aria-current={current ? 'step' : undefined}
                    aria-label={`Step ${i + 1}: ${s.title}${done ? ' (completed)' : ''}`}
                    className={cn(
                      'flex size-7 shrink-0 items-center justify-center rounded-full border text-xs font-semibold transition-colors',
                      current && 'border-primary bg-primary text-primary-foreground',
                      !current && done && 'border-primary/40 bg-primary/10 text-primary',
                      !current && !done && 'bg-card text-muted-foreground hover:bg-accent',
                    )}
                  >
                    {done && !current ? <Check aria-hidden className="size-3.5" strokeWidth={3} /> : i + 1}
                  </button>
                  {i < ONBOARDING_STEPS.length - 1 && (
                    <span aria-hidden className={cn('h-px flex-1', done ? 'bg-primary/50' : 'bg-border')} />
                  )}
                </li>
              );
            })}
          </ol>
          <div className="flex items-start gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-5" />
            </span>
            <div>
              <DialogTitle className="text-lg">{step.title}</DialogTitle>
              <DialogDescription>{step.description}</DialogDescription>
            </div>
          </div>
        </div>
        <div className="max-h-[55dvh] overflow-y-auto px-5 py-5 sm:px-6">{step.content}</div>
        <div className="flex items-center justify-between gap-2 border-t px-5 py-4 sm:px-6">
          <Button variant="ghost" onClick={() => setConfirmSkip(true)}>
            Skip
          </Button>
          <div className="flex items-center gap-2">
            <span className="hidden text-xs text-muted-foreground tabular-nums sm:inline">
              {stepper.index + 1} of {ONBOARDING_STEPS.length}
            </span>
            <Button variant="outline" onClick={stepper.previous} disabled={stepper.isFirst}>
              Previous
            </Button>
            {stepper.isLast ? (
              <Button onClick={onFinish}>Get Started!</Button>
            ) : (
              <Button onClick={stepper.next}>Next</Button>
            )}
          </div>
        </div>
      </DialogContent>
      <AlertDialog open={confirmSkip} onOpenChange={setConfirmSkip}>
        <AlertDialogContent>
          <AlertDialogTitle>Skip the guide?</AlertDialogTitle>
          <AlertDialogDescription>{SKIP_CONFIRMATION}</AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>Continue Guide</AlertDialogCancel>
            <AlertDialogAction onClick={onSkip}>Skip Guide</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Dialog>
  );
}
