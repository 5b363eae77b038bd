// The onboarding guide's completion flag, kept per browser.

/** ONBOARDING_STORAGE_KEY is the localStorage key of the completion flag. */
export const ONBOARDING_STORAGE_KEY = 'basalt-onboarding-completed';

/** isOnboardingCompleted is true once the guide was finished or skipped in this browser. */
export function isOnboardingCompleted(): boolean {
  try {
    return localStorage.getItem(ONBOARDING_STORAGE_KEY) === 'true';
  } catch {
    // No storage: do not nag on every page load.
    return true;
  }
}

/** markOnboardingCompleted sets the flag. */
export function markOnboardingCompleted(): void {
  try {
    localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true');
  } catch {
    // Storage unavailable: the guide may show again next time.
  }
}

/** clearOnboardingCompleted removes the flag so the guide opens again. */
export function clearOnboardingCompleted(): void {
  try {
    localStorage.removeItem(ONBOARDING_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}
