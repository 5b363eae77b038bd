// Theme preference: light, dark or system, stored per browser. The inline script in
// index.html applies the same rule before the first paint; keep the two in sync.

/** THEME_STORAGE_KEY is the localStorage key of the routed app's theme preference. */
export const THEME_STORAGE_KEY = 'basalt-theme';

/** Theme is the user's preference; ResolvedTheme is what is shown. */
export type Theme = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

const THEMES: readonly Theme[] = ['light', 'dark', 'system'];

/** isTheme narrows a stored string to a Theme. */
export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && THEMES.some((t) => t === value);
}

/** readStoredTheme returns the saved preference, or system when none (or storage is unavailable). */
export function readStoredTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** storeTheme saves the preference so it survives a reload. */
export function storeTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

/** systemPrefersDark reads the operating system's colour scheme. */
export function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

/** resolveTheme turns a preference into light or dark. */
export function resolveTheme(theme: Theme, prefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return prefersDark ? 'dark' : 'light';
  return theme;
}

/** applyTheme sets or removes the dark class on <html>. */
export function applyTheme(resolved: ResolvedTheme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', resolved === 'dark');
  root.style.colorScheme = resolved;
}
