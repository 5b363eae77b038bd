import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FunctionForm, routeOf } from './FunctionForm';

// A new function's route follows its name, so a second function does not ask for the first one's route (409).

describe('a new function route', () => {
  it('is /api/edge/<name>, with the characters a route may hold', () => {
    expect(routeOf('send-email')).toBe('/api/edge/send-email');
    expect(routeOf('  Nightly report!  ')).toBe('/api/edge/Nightly-report');
    expect(routeOf('')).toBe('/api/edge/my-function');
    expect(routeOf('../../etc')).toBe('/api/edge/etc');
  });

  it('follows the name until the person edits the route', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<FunctionForm fn={null} pending={false} submitLabel="Create" onSubmit={onSubmit} onCancel={vi.fn()} />);
    const route = screen.getByLabelText('Route');
    expect(route).toHaveValue('/api/edge/my-function');
    await user.type(screen.getByLabelText('Name'), 'send_email');
    expect(route).toHaveValue('/api/edge/send_email');
    await user.clear(route);
    await user.type(route, '/api/edge/mail');
    await user.type(screen.getByLabelText('Name'), '2');
    expect(route).toHaveValue('/api/edge/mail');
  });
});
