import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThemeToggle } from '@/app/shell/ThemeToggle';
import { TooltipProvider } from '@/components/ui/tooltip';
import { readStoredTheme, resolveTheme, storeTheme, THEME_STORAGE_KEY } from './theme';
import { ThemeProvider, useTheme } from './theme-provider';

/** fakeColorScheme stands in for the OS colour-scheme media query; set() fires its change event. */
function fakeColorScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => query),
  );
  return {
    set(next: boolean) {
      query.matches = next;
      for (const listener of listeners) listener();
    },
  };
}

const isDark = () => document.documentElement.classList.contains('dark');

function ThemeChoice() {
  const { theme, setTheme } = useTheme();
  return (
    <button type="button" onClick={() => setTheme('system')}>
      {`theme:${theme}`}
    </button>
  );
}

function renderTheme() {
  return render(
    <ThemeProvider>
      <TooltipProvider>
        <ThemeToggle />
        <ThemeChoice />
      </TooltipProvider>
    </ThemeProvider>,
  );
}

beforeEach(() => document.documentElement.classList.remove('dark'));
afterEach(() => vi.unstubAllGlobals());

describe('theme storage', () => {
  it('defaults to system and ignores unknown values', () => {
    expect(readStoredTheme()).toBe('system');
    localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    expect(readStoredTheme()).toBe('system');
    storeTheme('dark');
    expect(localStorage.getItem('basalt-theme')).toBe('dark');
    expect(readStoredTheme()).toBe('dark');
  });

  it('resolves system from the OS preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
});

describe('ThemeProvider', () => {
  it('follows the OS while the preference is system', () => {
    const os = fakeColorScheme(true);
    renderTheme();
    expect(isDark()).toBe(true);
    act(() => os.set(false));
    expect(isDark()).toBe(false);
  });

  it('toggles light/dark, stores the choice and keeps it across a reload', async () => {
    fakeColorScheme(false);
    const user = userEvent.setup();
    const view = renderTheme();
    expect(isDark()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Toggle theme' }));
    expect(isDark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    view.unmount();
    document.documentElement.classList.remove('dark');
    renderTheme();
    expect(isDark()).toBe(true);
    expect(screen.getByRole('button', { name: 'Toggle theme' })).toHaveAttribute('data-theme-next', 'light');
    await user.click(screen.getByRole('button', { name: 'theme:dark' }));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('system');
    expect(isDark()).toBe(false);
  });

  it('applies the stored theme before the app starts (inline script of index.html)', () => {
    const html = readFileSync(path.resolve(import.meta.dirname, '../../index.html'), 'utf8');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    if (!script) throw new Error('index.html has no inline theme script');
    fakeColorScheme(false);
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    new Function(script)();
    expect(isDark()).toBe(true);
    localStorage.setItem(THEME_STORAGE_KEY, 'system');
    new Function(script)();
    expect(isDark()).toBe(false);
  });
});
