import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/features/auth/auth-context';
import { OnboardingDialog } from './OnboardingDialog';
import { OnboardingContext } from './onboarding-context';
import { clearOnboardingCompleted, isOnboardingCompleted, markOnboardingCompleted } from './onboarding-storage';

const reloadPage = () => window.location.reload();

/** OnboardingProvider opens the guide for a signed-in user who has not finished or skipped it yet. */
export function OnboardingProvider({ children, reload = reloadPage }: { children: ReactNode; reload?: () => void }) {
  const { session } = useAuth();
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState(isOnboardingCompleted);
  const open = session !== null && !dismissed;

  const finish = useCallback(() => {
    markOnboardingCompleted();
    setDismissed(true);
    navigate('/');
  }, [navigate]);

  const skip = useCallback(() => {
    markOnboardingCompleted();
    setDismissed(true);
  }, []);

  const restart = useCallback(() => {
    clearOnboardingCompleted();
    reload();
  }, [reload]);

  const value = useMemo(() => ({ restart }), [restart]);
  return (
    <OnboardingContext.Provider value={value}>
      {children}
      {open && <OnboardingDialog open onFinish={finish} onSkip={skip} />}
    </OnboardingContext.Provider>
  );
}
