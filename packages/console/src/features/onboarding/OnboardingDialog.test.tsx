import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '@/features/auth/auth-context';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { GLOSSARY, searchGlossary } from './glossary';
import { OnboardingProvider } from './OnboardingProvider';
import { useOnboarding } from './onboarding-context';
import { ONBOARDING_STEPS } from './onboarding-steps';
import { isOnboardingCompleted, ONBOARDING_STORAGE_KEY } from './onboarding-storage';

function RestartButton() {
  const { restart } = useOnboarding();
  return (
    <button type="button" onClick={restart}>
      Show Onboarding
    </button>
  );
}

function renderGuide(path = '/tables') {
  const session = fakeSession();
  const auth: AuthContextValue = {
    client: createFakeAuth(session).auth,
    session,
    user: null,
    isLoading: false,
    needsMfa: false,
  };
  const reload = vi.fn();
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <AuthContext.Provider value={auth}>
            <OnboardingProvider reload={reload}>
              <RestartButton />
            </OnboardingProvider>
          </AuthContext.Provider>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { router, reload, user: userEvent.setup() };
}

const dialog = () => screen.getByRole('dialog');
const title = () => within(dialog()).getByRole('heading', { level: 2 }).textContent;

describe('onboarding guide', () => {
  it('walks the five steps with Next and Previous', async () => {
    const { user } = renderGuide();
    expect(ONBOARDING_STEPS.map((s) => s.id)).toEqual(['welcome', 'tables', 'api', 'monitor', 'help']);
    expect(title()).toBe('Welcome to Basalt');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(title()).toBe('Create your first table');
    expect(screen.getByText('+ New Table')).toBeInTheDocument();
    for (const column of ['name', 'email', 'joined_date', 'is_active']) {
      expect(screen.getByText(column)).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(title()).toBe('Welcome to Basalt');
  });

  it('numbers the step tabs and ticks the completed ones', async () => {
    const { user } = renderGuide();
    const steps = screen.getByRole('list', { name: 'Onboarding steps' });
    expect(
      within(steps)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1', '2', '3', '4', '5']);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(within(steps).getByRole('button', { name: 'Step 1: Welcome to Basalt (completed)' })).toBeInTheDocument();
    expect(
      within(steps).getByRole('button', { name: 'Step 2: Create your first table (completed)' }),
    ).toBeInTheDocument();
    expect(within(steps).getByRole('button', { name: /^Step 3/ })).toHaveAttribute('aria-current', 'step');
  });

  it('finishes with Get Started!, marks the guide completed and goes to the dashboard', async () => {
    const { user, router } = renderGuide();
    for (let i = 0; i < 4; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(title()).toBe('Help is always close');
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    expect(isOnboardingCompleted()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Get Started!' }));
    expect(localStorage.getItem(ONBOARDING_STORAGE_KEY)).toBe('true');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('asks before skipping and only then marks the guide completed', async () => {
    const { user } = renderGuide();
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    const confirm = screen.getByRole('alertdialog');
    expect(
      within(confirm).getByText(
        'Are you sure you want to skip the onboarding guide? You can always access it later from the Help menu.',
      ),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Continue Guide' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(isOnboardingCompleted()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    await user.click(screen.getByRole('button', { name: 'Skip Guide' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(isOnboardingCompleted()).toBe(true);
  });

  it('does not close when Escape is pressed; it asks to skip instead', async () => {
    const { user } = renderGuide();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    // The guide stays open underneath (hidden from assistive tech while the question is asked).
    const guide = screen.getByRole('dialog', { hidden: true });
    expect(within(guide).getByText('Welcome to Basalt')).toBeInTheDocument();
  });

  it('stays closed once completed, and Show Onboarding clears the flag and reloads', async () => {
    localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true');
    const { user, reload } = renderGuide();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Onboarding' }));
    expect(localStorage.getItem(ONBOARDING_STORAGE_KEY)).toBeNull();
    expect(reload).toHaveBeenCalled();
  });

  it('has a searchable glossary of the 19 terms, each with title, simple and details', async () => {
    const ids = GLOSSARY.map((g) => g.id);
    expect(ids).toEqual([
      'api',
      'database',
      'backend',
      'schema',
      'rest',
      'authentication',
      'authorization',
      'query',
      'endpoint',
      'webhook',
      'middleware',
      'cache',
      'cors',
      'jwt',
      'orm',
      'cdn',
      'serverless',
      'graphql',
      'websocket',
    ]);
    for (const entry of GLOSSARY) expect(entry.title && entry.simple && entry.details).toBeTruthy();
    expect(searchGlossary('token').map((g) => g.id)).toContain('jwt');

    const { user } = renderGuide();
    for (let i = 0; i < 4; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByRole('textbox', { name: 'Search the glossary' }), 'graphql');
    const term = screen.getByRole('button', { name: /GraphQL/ });
    expect(screen.queryByRole('button', { name: /WebSocket/ })).not.toBeInTheDocument();
    await user.click(term);
    expect(screen.getByText(/uses one endpoint and a query/)).toBeInTheDocument();
  });
});
