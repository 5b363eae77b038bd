import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

const CHECKLIST = [
  'At least 8 characters',
  'At least 1 uppercase letter',
  'At least 1 lowercase letter',
  'At least 1 number',
  'At least 1 special character',
];

function metItems(): string[] {
  const list = screen.getByRole('list', { name: 'Password requirements' });
  return CHECKLIST.filter((label) => within(list).getByText(label).closest('li')?.dataset.state === 'met');
}

describe('PasswordStrengthMeter', () => {
  // Score: min(25, length/8 × 25) + 15 per class present − 15 for a character repeated 4 times in a row.
  it.each([
    ['abc', 24, 'Very weak password'], // 9.4 + 15
    ['abcdefgh', 40, 'Weak password'], // 25 + 15
    ['abcdefg1', 55, 'Medium strength password'], // 25 + 30
    ['Abcdefg1', 70, 'Medium strength password'], // 25 + 45
    ['Abcdefg1!', 85, 'Strong password'], // 25 + 60
    ['Aaaaaaa1!', 70, 'Medium strength password'], // 85 − 15 for "aaaa"
    ['!!!!', 13, 'Very weak password'], // 12.5 + 15 − 15
    ['Ab1!', 73, 'Medium strength password'], // 12.5 + 60
  ])('scores %s as %i: %s', (password, score, label) => {
    render(<PasswordStrengthMeter password={password} />);
    const meter = screen.getByRole('progressbar', { name: 'Password strength' });
    expect(meter).toHaveAttribute('aria-valuenow', String(score));
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it('hides the meter for an empty password but shows the unticked checklist', () => {
    render(<PasswordStrengthMeter password="" />);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    for (const label of CHECKLIST) expect(screen.getByText(label)).toBeInTheDocument();
    expect(metItems()).toEqual([]);
  });

  it('ticks each checklist rule live as the password changes', () => {
    const { rerender } = render(<PasswordStrengthMeter password="abc" />);
    expect(metItems()).toEqual(['At least 1 lowercase letter']);
    rerender(<PasswordStrengthMeter password="abcdefgH" />);
    expect(metItems()).toEqual(['At least 8 characters', 'At least 1 uppercase letter', 'At least 1 lowercase letter']);
    rerender(<PasswordStrengthMeter password="abcdefgH1$" />);
    expect(metItems()).toEqual(CHECKLIST);
  });
});
