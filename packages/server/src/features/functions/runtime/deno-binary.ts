import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

// Deno comes from the npm registry: the `deno` package depends on one platform package per OS and CPU
// (@deno/linux-x64-glibc, …) that holds the real executable, so no install script and no download is needed.

const require = createRequire(import.meta.url);

function platformPackage(): string {
  const arch = os.arch() === 'arm64' ? 'arm64' : 'x64';
  const platform = os.platform();
  return platform === 'linux' ? `@deno/linux-${arch}-glibc` : `@deno/${platform}-${arch}`;
}

/** denoExecutable returns the Deno executable to run: the configured one, else the npm package's; throws if none. */
export function denoExecutable(configured: string | null): string {
  if (configured) return configured;
  const file = os.platform() === 'win32' ? 'deno.exe' : 'deno';
  const candidates: string[] = [];
  for (const pkg of [platformPackage(), 'deno']) {
    try {
      candidates.push(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file));
    } catch {
      // Not installed for this platform: try the next.
    }
  }
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) {
    throw new Error(
      `No Deno executable found (looked for the npm package ${platformPackage()}); run npm install, or set FUNCTIONS_DENO_PATH`,
    );
  }
  return found;
}
