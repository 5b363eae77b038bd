import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoginForm } from './LoginForm';

function setup(props: { isPending?: boolean } = {}) {
  const onSubmit = vi.fn();
  const onForgotPassword = vi.fn();
  const user = userEvent.setup();
  render(<LoginForm isPending={props.isPending ?? false} onSubmit={onSubmit} onForgotPassword={onForgotPassword} />);
  return { user, onSubmit, onForgotPassword };
}

describe('LoginForm', () => {
  it('shows the email and password messages', async () => {
    const { user, onSubmit } = setup();
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits email and password but not Remember me', async () => {
    const { user, onSubmit } = setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever-8');
    await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSubmit).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'whatever-8' });
  });

  it('asks for a valid email before sending a reset link, then sends it for the typed email', async () => {
    const { user, onForgotPassword } = setup();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(onForgotPassword).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(onForgotPassword).toHaveBeenCalledWith('ada@example.com');
  });

  it('disables the submit button and relabels it while signing in', () => {
    setup({ isPending: true });
    expect(screen.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
  });
});
