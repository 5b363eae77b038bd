/** buildConsole runs Vite's production build when the console's sources changed; true when it built. */
export function buildConsole(options?: { force?: boolean }): Promise<boolean>;
/** buildServer bundles the server when its sources changed; true when it built. */
export function buildServer(options?: { force?: boolean }): Promise<boolean>;
