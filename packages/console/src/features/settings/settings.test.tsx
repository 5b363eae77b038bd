import type { UserProfile } from '@basalt/shared';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY } from '@/lib/theme';
import { type FakeRoute, json } from '@/test/fake-backend';
import { pending, serveFake, setUpFakeServerSuite } from '@/test/fake-server';
import { renderApp, testConfig } from '@/test/render-app';

// Settings › Profile, Account and Appearance against a fake server.

// The lazy route loads first; on a busy machine that takes longer than the default second.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

vi.mock('@/lib/supabase', () => import('@/test/fake-server'));
setUpFakeServerSuite();

const ada: UserProfile = {
  id: 'user-1',
  username: 'ada',
  email: 'ada@example.com',
  marketingEmails: false,
  pendingEmail: null,
};

/** serve answers with ada's profile unless a test says otherwise. */
const serve = (routes: Record<string, FakeRoute>) =>
  serveFake({ 'GET /api/user/profile': () => json(200, ada), ...routes });

afterEach(() => document.documentElement.classList.remove('dark'));

describe('the Settings page', () => {
  it('has the Profile, Account, Appearance, Database and Logs tabs, chosen by ?tab', async () => {
    serve({});
    const user = userEvent.setup();
    const { router } = renderApp('/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Profile',
      'Account',
      'Appearance',
      'Database',
      'Logs',
    ]);
    expect(screen.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Appearance' }));
    expect(router.state.location.search).toBe('?tab=appearance');
    expect(screen.getByRole('radiogroup', { name: 'Theme' })).toBeInTheDocument();
  });
});

describe('Settings › Profile', () => {
  it('shows skeletons while loading, and an error with Retry', async () => {
    let answer: FakeRoute = pending;
    serve({ 'GET /api/user/profile': (r) => answer(r) });
    const user = userEvent.setup();
    const first = renderApp('/settings');
    expect(await screen.findByTestId('profile-skeleton')).toBeInTheDocument();
    first.unmount();
    answer = () => json(404, { message: 'Account not found' });
    renderApp('/settings');
    expect(await screen.findByText('Failed to load your profile')).toBeInTheDocument();
    answer = () => json(200, ada);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByDisplayValue('ada')).toBeInTheDocument();
  });

  it('enables Save only after a change, validates with the spec messages and sends only what changed', async () => {
    const backend = serve({
      'PATCH /api/user/profile': (r) =>
        json(200, { profile: { ...ada, ...Object(r.body) }, emailChangePending: false }),
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const username = await screen.findByRole('textbox', { name: 'Username' });
    const email = screen.getByRole('textbox', { name: 'Email' });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(username).toHaveValue('ada');
    expect(email).toHaveValue('ada@example.com');
    expect(screen.getByRole('switch', { name: 'Marketing emails' })).not.toBeChecked();
    expect(save).toBeDisabled();

    await user.type(username, 'x');
    expect(save).toBeEnabled();
    await user.clear(username);
    await user.type(username, 'ada');
    expect(save).toBeDisabled();

    await user.clear(username);
    await user.type(username, 'ad');
    await user.clear(email);
    await user.type(email, 'not-an-email');
    await user.click(save);
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(backend.find('PATCH', '/api/user/profile')).toHaveLength(0);

    await user.clear(username);
    await user.type(username, 'ada_lovelace');
    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.click(screen.getByRole('switch', { name: 'Marketing emails' }));
    await user.click(save);
    expect(await screen.findByText('Profile Updated')).toBeInTheDocument();
    expect(backend.find('PATCH', '/api/user/profile')[0]?.body).toEqual({
      username: 'ada_lovelace',
      marketingEmails: true,
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('ada_lovelace');
  });

  it('shows a taken username under its field and in an Update Failed toast', async () => {
    serve({
      'PATCH /api/user/profile': () =>
        json(409, {
          message: 'This username is already taken',
          validationErrors: { username: ['This username is already taken'] },
        }),
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const username = await screen.findByRole('textbox', { name: 'Username' });
    await user.clear(username);
    await user.type(username, 'grace');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getAllByText('This username is already taken')).toHaveLength(2);
    expect(username).toHaveAttribute('aria-invalid', 'true');
  });

  it('says that a new email waits for its confirmation', async () => {
    const backend = serve({
      'PATCH /api/user/profile': () =>
        json(200, { profile: { ...ada, pendingEmail: 'ada@new.example' }, emailChangePending: true }),
    });
    const user = userEvent.setup();
    renderApp('/settings', { ...testConfig, mailConfigured: true });
    const email = await screen.findByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await user.type(email, 'ada@new.example');
    expect(screen.getByText(/We will send a confirmation link to the new address/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Check your new email address for a link to confirm the change.'),
    ).toBeInTheDocument();
    expect(backend.find('PATCH', '/api/user/profile')[0]?.body).toEqual({ email: 'ada@new.example' });
    // The form shows the address in use, and the one waiting.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com'));
    expect(screen.getByText('ada@new.example')).toBeInTheDocument();
  });
});

describe('Settings › Account', () => {
  it('validates the password change with the spec messages, then sends current and new', async () => {
    const backend = serve({ 'POST /api/user/change-password': () => json(200, { success: true }) });
    const user = userEvent.setup();
    renderApp('/settings?tab=account');
    const update = await screen.findByRole('button', { name: 'Update Password' });
    await user.click(update);
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(screen.getAllByText('Password must be at least 8 characters')).toHaveLength(2);

    await user.type(screen.getByLabelText('Current password'), 'Old-pass1');
    await user.type(screen.getByLabelText('New password'), 'New-pass22');
    await user.type(screen.getByLabelText('Confirm new password'), 'New-pass23');
    await user.click(update);
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
    expect(backend.find('POST', '/api/user/change-password')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'New-pass22');
    await user.click(update);
    expect(await screen.findByText('Password Updated')).toBeInTheDocument();
    expect(backend.find('POST', '/api/user/change-password')[0]?.body).toEqual({
      currentPassword: 'Old-pass1',
      newPassword: 'New-pass22',
    });
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
  });

  it('puts a wrong current password under its field and in a Password Update Failed toast', async () => {
    serve({
      'POST /api/user/change-password': () =>
        json(400, {
          message: 'Current password is incorrect',
          validationErrors: { currentPassword: ['Current password is incorrect'] },
        }),
    });
    const user = userEvent.setup();
    renderApp('/settings?tab=account');
    await user.type(await screen.findByLabelText('Current password'), 'Wrong-pass1');
    await user.type(screen.getByLabelText('New password'), 'New-pass22');
    await user.type(screen.getByLabelText('Confirm new password'), 'New-pass22');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password Update Failed')).toBeInTheDocument();
    expect(screen.getAllByText('Current password is incorrect')).toHaveLength(2);
  });

  it('deletes the account once the username is typed, then signs out to /auth', async () => {
    const backend = serve({ 'DELETE /api/user': () => json(200, { success: true }) });
    const user = userEvent.setup();
    const { router } = renderApp('/settings?tab=account');
    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete Account' });
    expect(confirm).toBeDisabled();
    const input = within(dialog).getByRole('textbox', { name: 'Type ada to confirm' });
    await user.type(input, 'Ada');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'ada');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(backend.find('DELETE', '/api/user')[0]?.body).toEqual({ confirm: 'ada' });
    expect(backend.auth.signOut).toHaveBeenCalled();
    expect(await screen.findByText('Account deleted')).toBeInTheDocument();
  });

  it('keeps the account when the dialog is cancelled, and says when deleting fails', async () => {
    const backend = serve({
      'DELETE /api/user': () => json(400, { message: 'Type your username, ada, to confirm' }),
    });
    const user = userEvent.setup();
    renderApp('/settings?tab=account');
    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.find('DELETE', '/api/user')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox'), 'ada');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByText('Failed to delete account')).toBeInTheDocument();
    expect(backend.auth.signOut).not.toHaveBeenCalled();
  });
});

describe('Settings › Appearance', () => {
  it('offers Light, Dark and System, shared with the top bar toggle', async () => {
    serve({});
    const user = userEvent.setup();
    renderApp('/settings?tab=appearance');
    const group = await screen.findByRole('radiogroup', { name: 'Theme' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.textContent || r.getAttribute('aria-labelledby')),
    ).toEqual(['theme-light-label', 'theme-dark-label', 'theme-system-label']);
    expect(within(group).getByRole('radio', { name: 'System' })).toBeChecked();

    await user.click(within(group).getByRole('radio', { name: 'Dark' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    await user.click(screen.getByRole('button', { name: 'Toggle theme' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(within(group).getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });
});
