import { useCallback, useState } from 'react';

/** OnboardingStepper is the guide's position and which steps were completed. */
export interface OnboardingStepper {
  index: number;
  isFirst: boolean;
  isLast: boolean;
  completed: ReadonlySet<number>;
  next: () => void;
  previous: () => void;
  goTo: (index: number) => void;
}

/** useOnboardingSteps moves through `count` steps; Next marks the step it leaves as completed. */
export function useOnboardingSteps(count: number): OnboardingStepper {
  const [index, setIndex] = useState(0);
  const [completed, setCompleted] = useState<ReadonlySet<number>>(() => new Set());

  const next = useCallback(() => {
    setCompleted((done) => new Set(done).add(index));
    setIndex(Math.min(index + 1, count - 1));
  }, [index, count]);
  const previous = useCallback(() => setIndex((i) => Math.max(i - 1, 0)), []);
  const goTo = useCallback((target: number) => setIndex(Math.max(0, Math.min(target, count - 1))), [count]);

  return { index, isFirst: index === 0, isLast: index === count - 1, completed, next, previous, goTo };
}
