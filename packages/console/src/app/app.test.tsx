import { AuthApiError } from '@supabase/supabase-js';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthClient } from '@/features/auth/auth-actions';
import { ONBOARDING_STORAGE_KEY } from '@/features/onboarding/onboarding-storage';
import { createFakeAuth, fakeSession } from '@/test/fake-auth';
import { renderApp, testConfig } from '@/test/render-app';

// The routed console end to end in happy-dom: guard, auth page, shell, placeholders, 404 and titles.

const supabase = vi.hoisted(() => ({ auth: null as AuthClient | null }));
vi.mock('@/lib/supabase', () => ({
  getSupabase: () => {
    if (!supabase.auth) throw new Error('no fake auth installed');
    return { auth: supabase.auth };
  },
}));

function signedIn() {
  const fake = createFakeAuth(fakeSession());
  supabase.auth = fake.auth;
  return fake;
}

function signedOut() {
  const fake = createFakeAuth(null);
  supabase.auth = fake.auth;
  return fake;
}

beforeEach(() => {
  // /api/auth/me answers 401 (no server here): the app falls back to the session's user.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ message: 'Not signed in' }), { status: 401 })),
  );
  localStorage.setItem(ONBOARDING_STORAGE_KEY, 'true');
});
afterEach(() => vi.unstubAllGlobals());

describe('route guard', () => {
  it('sends a signed-out visitor to /auth', async () => {
    signedOut();
    const { router } = renderApp('/tables');
    expect(await screen.findByRole('heading', { name: 'Welcome to Basalt' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(screen.getByText('Your Backend-as-a-Service Platform')).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} Basalt`))).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sign in | Basalt'));
  });

  it('shows /terms to anyone, signed in or not', async () => {
    signedOut();
    const { router } = renderApp('/terms', { ...testConfig, termsUrl: null });
    expect(await screen.findByRole('heading', { name: 'Terms and conditions' })).toBeInTheDocument();
    expect(screen.getByText(/have not been published yet/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/terms');
    await waitFor(() => expect(document.title).toBe('Terms and conditions | Basalt'));
  });

  it("links /terms to the operator's terms when they are set", async () => {
    signedOut();
    renderApp('/terms');
    expect(await screen.findByRole('link', { name: 'https://example.com/terms' })).toHaveAttribute(
      'href',
      'https://example.com/terms',
    );
  });

  it('offers no registration when an administrator closed sign-ups, and no terms checkbox without terms', async () => {
    signedOut();
    renderApp('/auth?tab=register', { ...testConfig, signupsAllowed: false });
    expect(await screen.findByText(/Sign-ups are closed on this instance/)).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Register' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a signed-in user away from /auth to the dashboard', async () => {
    signedIn();
    const { router } = renderApp('/auth');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('/auth', () => {
  it('signs in, greets the user and opens the dashboard', async () => {
    const { auth } = signedOut();
    const user = userEvent.setup();
    const { router } = renderApp('/auth');
    await user.type(await screen.findByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back, grace!')).toBeInTheDocument();
    expect(auth.signInWithPassword).toHaveBeenCalledWith({ email: 'grace@example.com', password: 'correct-horse' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows Login failed with the server message', async () => {
    const { auth } = signedOut();
    vi.mocked(auth.signInWithPassword).mockResolvedValue({
      data: { user: null, session: null },
      error: new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'),
    });
    const user = userEvent.setup();
    renderApp('/auth');
    await user.type(await screen.findByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid login credentials')).toBeInTheDocument();
    expect(auth.signInWithPassword).toHaveBeenCalledTimes(1);
  });

  it('registers and, when the email must be confirmed, says so and returns to Login', async () => {
    const { auth } = signedOut();
    const user = userEvent.setup();
    renderApp('/auth?tab=register');
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secr3t!pass');
    await user.type(screen.getByLabelText('Confirm Password'), 'Secr3t!pass');
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms and conditions' }));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Registration successful')).toBeInTheDocument();
    expect(
      screen.getByText('Welcome to Basalt, ada! Please check your email to confirm your account.'),
    ).toBeInTheDocument();
    expect(auth.signUp).toHaveBeenCalledWith({
      email: 'ada@example.com',
      password: 'Secr3t!pass',
      options: { data: { username: 'ada' } },
    });
    expect(await screen.findByRole('tab', { name: 'Login', selected: true })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('mails a password-reset link for the typed email', async () => {
    const { auth } = signedOut();
    const user = userEvent.setup();
    renderApp('/auth');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    // The link comes back to the page that sets the new password.
    expect(auth.resetPasswordForEmail).toHaveBeenCalledWith('ada@example.com', {
      redirectTo: `${window.location.origin}/reset-password`,
    });
  });
});

describe('password reset', () => {
  it('sets the new password of a recovery session without the current one, then opens the Dashboard', async () => {
    const { auth } = signedIn();
    const user = userEvent.setup();
    const { router } = renderApp('/reset-password');
    const form = await screen.findByRole('form', { name: 'Set a new password' });
    expect(within(form).queryByLabelText('Current password')).toBeNull();
    await user.type(within(form).getByLabelText('New password'), 'Analytical#1852');
    await user.type(within(form).getByLabelText('Confirm new password'), 'Analytical#1852');
    await user.click(within(form).getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(auth.updateUser).toHaveBeenCalledWith({ password: 'Analytical#1852' });
    expect(await screen.findByText('Password updated')).toBeInTheDocument();
  });

  it('goes to the reset page when supabase-js announces PASSWORD_RECOVERY', async () => {
    const { emit } = signedIn();
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    act(() => emit('PASSWORD_RECOVERY', fakeSession()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reset-password'));
  });

  it('says a link without a session cannot be used and leads back to sign in', async () => {
    signedOut();
    renderApp('/reset-password');
    expect(await screen.findByText('This password-reset link cannot be used.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/auth');
  });
});

describe('shell', () => {
  it('shows the user in the sidebar footer and highlights the active item', async () => {
    signedIn();
    renderApp('/tables');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tables' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Tables' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    const footer = screen.getByTestId('sidebar-footer');
    expect(within(footer).getByText('AD')).toBeInTheDocument();
    expect(within(footer).getByText('ada')).toBeInTheDocument();
    expect(within(footer).getByText('ada@example.com')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Tables | Basalt'));
  });

  it.each(['/settings?tab=account', '/settings', '/settings?tab=database'])(
    'highlights Settings, not its Authentication shortcut, on %s',
    async (path) => {
      signedIn();
      renderApp(path);
      const nav = await screen.findByRole('navigation', { name: 'Main' });
      expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
      expect(within(nav).getByRole('link', { name: 'Authentication' })).not.toHaveAttribute('aria-current');
    },
  );

  it('opens the account tab of Settings from Authentication, with Settings highlighted', async () => {
    signedIn();
    const user = userEvent.setup();
    const { router } = renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Authentication' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=account'));
    expect(router.state.location.pathname).toBe('/settings');
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page'),
    );
    expect(within(nav).getByRole('link', { name: 'Authentication' })).not.toHaveAttribute('aria-current');
  });

  it("opens New Project from the top bar's New Project button", async () => {
    signedIn();
    const user = userEvent.setup();
    const { router } = renderApp('/');
    await user.click(await screen.findByRole('link', { name: 'New Project' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects/new'));
  });

  it('answers an unknown path with the 404 page', async () => {
    signedIn();
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/There is no page at this address/)).toBeInTheDocument();
    expect(screen.queryByText(/router/)).toBeNull();
  });

  it.each([
    ['/tables/new', 'dialog', 'Create New Table'],
    ['/tables/create', 'dialog', 'Create New Table'],
    ['/tables/7', 'link', 'Back'],
    ['/tables/7/edit', 'heading', 'Edit Table'],
    ['/api', 'heading', 'API'],
    ['/history', 'heading', 'Database History'],
    ['/history/7', 'heading', 'Database History'],
    ['/settings', 'heading', 'Settings'],
    ['/logs', 'heading', 'System Logs'],
    ['/table-api', 'heading', 'Table API'],
    ['/record-api', 'heading', 'Record API'],
    ['/record-api/reference', 'heading', 'OpenAPI reference'],
    ['/users', 'heading', 'Users'],
    ['/profile', 'heading', 'Profile'],
    ['/documentation', 'heading', 'Documentation'],
    ['/sql-execution', 'heading', 'SQL Execution'],
    ['/edge-functions', 'heading', 'Edge Functions'],
    ['/secrets', 'heading', 'Secrets'],
    ['/schema-editor', 'heading', 'Schema Editor'],
    ['/projects/new', 'heading', 'New Project'],
    ['/billing', 'heading', 'Billing'],
  ] as const)('has its built page at %s', async (path, role, name) => {
    signedIn();
    renderApp(path);
    expect(await screen.findByRole(role, { name })).toBeInTheDocument();
  });

  it('logs out from the account menu, clears the cache and returns to /auth', async () => {
    const { auth } = signedIn();
    const user = userEvent.setup();
    const { router, queryClient } = renderApp('/');
    queryClient.setQueryData(['/api/tables'], [{ id: 1 }]);
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByText('Logged out')).toBeInTheDocument();
    expect(screen.getByText('You have been successfully logged out.')).toBeInTheDocument();
    expect(auth.signOut).toHaveBeenCalled();
    expect(queryClient.getQueryData(['/api/tables'])).toBeUndefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('offers no Undo after plain navigation: there is nothing to undo', async () => {
    signedIn();
    const user = userEvent.setup();
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
    await user.click(within(nav).getByRole('link', { name: 'Tables' }));
    await user.click(within(nav).getByRole('link', { name: 'Users' }));
    await screen.findByRole('heading', { level: 1, name: 'Users' });
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('opens the onboarding guide for a signed-in user who has not completed it', async () => {
    localStorage.removeItem(ONBOARDING_STORAGE_KEY);
    signedIn();
    renderApp('/');
    expect(await screen.findByRole('dialog', { name: 'Welcome to Basalt' })).toBeInTheDocument();
  });

  it('follows a sign-out in another tab', async () => {
    const { emit } = signedIn();
    const { router } = renderApp('/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' });
    act(() => emit('SIGNED_OUT', null));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });
});
