import { createContext, useContext } from 'react';

/** OnboardingContextValue opens the guide again. */
export interface OnboardingContextValue {
  /** restart clears the completion flag and reloads, so the guide opens (Show Onboarding). */
  restart: () => void;
}

/** OnboardingContext is provided by OnboardingProvider. */
export const OnboardingContext = createContext<OnboardingContextValue | null>(null);

/** useOnboarding gives the Help menu its Show Onboarding action. */
export function useOnboarding(): OnboardingContextValue {
  const value = useContext(OnboardingContext);
  if (!value) throw new Error('useOnboarding must be used inside <OnboardingProvider>');
  return value;
}
