import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RegisterForm } from './RegisterForm';

function setup() {
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  render(<RegisterForm isPending={false} onSubmit={onSubmit} termsUrl="https://example.com/terms" />);
  const fill = async (fields: Partial<Record<'Username' | 'Email' | 'Password' | 'Confirm Password', string>>) => {
    for (const [label, value] of Object.entries(fields)) {
      const input = screen.getByLabelText(label);
      await user.clear(input);
      if (value) {
        await user.click(input);
        await user.paste(value);
      }
    }
  };
  const submit = () => user.click(screen.getByRole('button', { name: 'Create account' }));
  const acceptTerms = () => user.click(screen.getByRole('checkbox', { name: 'I accept the terms and conditions' }));
  const valid = {
    Username: 'ada_l',
    Email: 'ada@example.com',
    Password: 'Secr3t!pass',
    'Confirm Password': 'Secr3t!pass',
  };
  return { user, onSubmit, fill, submit, acceptTerms, valid };
}

/** errorOf returns the validation message shown for a field. */
function errorOf(label: string): string | null {
  const describedBy = screen.getByLabelText(label).getAttribute('aria-describedby');
  return describedBy ? (document.getElementById(describedBy)?.textContent ?? null) : null;
}

describe('RegisterForm validation', () => {
  it('shows the required-field messages on an empty submit', async () => {
    const { submit, onSubmit } = setup();
    await submit();
    expect(errorOf('Username')).toBe('Username must be at least 3 characters');
    expect(errorOf('Email')).toBe('Please enter a valid email');
    expect(errorOf('Password')).toBe('Password must be at least 8 characters');
    expect(errorOf('Confirm Password')).toBe('Please confirm your password');
    expect(screen.getByText('You must accept the terms and conditions')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['ab', 'Username must be at least 3 characters'],
    ['a'.repeat(51), 'Username cannot exceed 50 characters'],
    ['ada lovelace', 'Username can only contain letters, numbers, underscores and hyphens'],
    ['ada!', 'Username can only contain letters, numbers, underscores and hyphens'],
  ])('rejects the username %s', async (username, message) => {
    const { fill, submit } = setup();
    await fill({ Username: username });
    await submit();
    expect(errorOf('Username')).toBe(message);
  });

  it.each([
    ['not-an-email', 'Please enter a valid email'],
    [`${'a'.repeat(95)}@x.com`, 'Email cannot exceed 100 characters'],
  ])('rejects the email %s', async (email, message) => {
    const { fill, submit } = setup();
    await fill({ Email: email });
    await submit();
    expect(errorOf('Email')).toBe(message);
  });

  it.each([
    ['Sh0rt!', 'Password must be at least 8 characters'],
    [`Aa1!${'x'.repeat(97)}`, 'Password is too long'],
    ['lowercase1!', 'Password must contain at least one uppercase letter'],
    ['UPPERCASE1!', 'Password must contain at least one lowercase letter'],
    ['NoNumbers!', 'Password must contain at least one number'],
    ['NoSpecial1', 'Password must contain at least one special character'],
  ])('rejects the password %s', async (password, message) => {
    const { fill, submit } = setup();
    await fill({ Password: password });
    await submit();
    expect(errorOf('Password')).toBe(message);
  });

  it('reports a mismatched confirmation on the Confirm Password field', async () => {
    const { fill, submit, acceptTerms, valid, onSubmit } = setup();
    await fill({ ...valid, 'Confirm Password': 'Secr3t!pas' });
    await acceptTerms();
    await submit();
    expect(errorOf('Confirm Password')).toBe('Passwords do not match');
    expect(errorOf('Password')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('requires the terms to be accepted', async () => {
    const { fill, submit, valid, onSubmit } = setup();
    await fill(valid);
    await submit();
    expect(screen.getByText('You must accept the terms and conditions')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("links the operator's terms beside the checkbox, in a new tab so the form keeps its input", () => {
    setup();
    const link = screen.getByRole('link', { name: 'terms and conditions' });
    expect(link).toHaveAttribute('href', 'https://example.com/terms');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
    expect(screen.queryByRole('button', { name: 'terms and conditions' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'I accept the terms and conditions' })).not.toBeChecked();
  });

  it('asks to accept nothing when the instance has no terms', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<RegisterForm isPending={false} onSubmit={onSubmit} termsUrl={null} />);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('link', { name: 'terms and conditions' })).toBeNull();
    await user.type(screen.getByLabelText('Username'), 'ada_l');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secr3t!pass');
    await user.type(screen.getByLabelText('Confirm Password'), 'Secr3t!pass');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(onSubmit).toHaveBeenCalledWith({ username: 'ada_l', email: 'ada@example.com', password: 'Secr3t!pass' });
  });

  it('submits username, email and password only when everything is valid', async () => {
    const { fill, submit, acceptTerms, valid, onSubmit } = setup();
    await fill(valid);
    await acceptTerms();
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({ username: 'ada_l', email: 'ada@example.com', password: 'Secr3t!pass' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the live strength meter while typing the password', async () => {
    const { fill } = setup();
    await fill({ Password: 'Secr3t!pass' });
    expect(screen.getByText('Strong password')).toBeInTheDocument();
  });

  it('labels the submit button while pending', () => {
    render(<RegisterForm isPending onSubmit={vi.fn()} termsUrl={null} />);
    expect(screen.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
  });
});
