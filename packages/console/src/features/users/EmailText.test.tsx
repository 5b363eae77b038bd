import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText } from './EmailText';

describe('EmailText', () => {
  it('lets an address wrap only after "@" and before the dots of its domain', () => {
    const { container } = render(<EmailText email="grace.hopper@navy.example.com" />);
    const span = container.querySelector('span');
    expect(span?.textContent).toBe('grace.hopper@navy.example.com');
    // The breaks a narrow column may take: none inside a word.
    expect(span?.innerHTML).toBe('grace.hopper@<wbr>navy<wbr>.example<wbr>.com');
    expect(span?.className).not.toContain('anywhere');
  });

  it('shows a value without "@" as it is', () => {
    const { container } = render(<EmailText email="no-address" />);
    expect(container.textContent).toBe('no-address');
  });
});
