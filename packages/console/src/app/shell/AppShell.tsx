import { Outlet, useLocation, useNavigation } from 'react-router';
import { CenteredSpinner } from '@/components/ui/spinner';
import { OnboardingProvider } from '@/features/onboarding/OnboardingProvider';
import { useRealtimeConnection } from '@/features/realtime/realtime.queries';
import { UndoProvider } from '@/features/undo/UndoProvider';
import { ErrorBoundary } from './ErrorBoundary';
import { FloatingWidget } from './FloatingWidget';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useMobileSidebar } from './useMobileSidebar';

/** AppShell is the signed-in layout: sidebar, top bar, the page, and the floating help widget. */
export function AppShell() {
  const sidebar = useMobileSidebar();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  // The realtime socket stays open while signed in: pages follow their tables on it, and the banner its state.
  useRealtimeConnection();
  return (
    <UndoProvider>
      <OnboardingProvider>
        {/* On desktop the sidebar is the first column: as tall as the page, however long the page runs. */}
        <div data-app-shell className="min-h-dvh bg-background md:grid md:grid-cols-[16rem_minmax(0,1fr)]">
          <Sidebar mobileOpen={sidebar.open} onMobileOpenChange={sidebar.setOpen} />
          <div className="flex min-h-dvh min-w-0 flex-col">
            <TopBar onOpenSidebar={() => sidebar.setOpen(true)} />
            {/* No scroll anchoring: the page moves down when a toast takes room above it, and must not be
                scrolled back under the toast. */}
            <main className="mx-auto w-full max-w-7xl flex-1 px-4 pt-6 pb-6 [overflow-anchor:none] sm:pb-24 sm:px-6 lg:px-8">
              {/* A page's code loads on first visit; show a spinner instead of the previous page meanwhile. */}
              {navigation.state === 'loading' ? (
                <CenteredSpinner label="Loading page" />
              ) : (
                <ErrorBoundary key={pathname}>
                  <Outlet />
                </ErrorBoundary>
              )}
            </main>
            <FloatingWidget />
          </div>
        </div>
      </OnboardingProvider>
    </UndoProvider>
  );
}
