import { type ConsoleConfig, consoleConfigSchema } from '@basalt/shared';
import { createContext, type ReactNode, useContext } from 'react';

/** fetchConsoleConfig reads GET /api/config, which needs no sign-in. */
export async function fetchConsoleConfig(): Promise<ConsoleConfig> {
  let response: Response;
  try {
    response = await fetch('/api/config', { headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch {
    throw new Error('Could not reach the Basalt server. Check that it is running and try again.');
  }
  if (!response.ok)
    throw new Error(`The server answered ${response.status} when the console asked for its configuration.`);
  const parsed = consoleConfigSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error('The server sent a configuration the console does not understand.');
  return parsed.data;
}

const ConfigContext = createContext<ConsoleConfig | null>(null);

/** ConfigProvider makes the instance configuration available to every screen. */
export function ConfigProvider({ config, children }: { config: ConsoleConfig; children: ReactNode }) {
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
}

/** useConsoleConfig returns the configuration loaded at start-up. */
export function useConsoleConfig(): ConsoleConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConsoleConfig must be used inside <ConfigProvider>');
  return config;
}

/**
 * useApiOrigin is where apps reach this server, as every page shows it: the server's SITE_URL when set, else the
 * address the console was opened at (so a page never says localhost while another says 127.0.0.1).
 */
export function useApiOrigin(): string {
  return useConsoleConfig().siteUrl ?? window.location.origin;
}
