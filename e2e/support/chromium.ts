import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** chromiumPath is the Chromium to drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else null. */
export function chromiumPath(): string | null {
  const candidate = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  return fs.existsSync(candidate) ? candidate : null;
}

/** browserSkipReason says why browser tests cannot run here, or null when they can. In CI they must run. */
export function browserSkipReason(): string | null {
  if (chromiumPath()) return null;
  const reason = `No Chromium at ${process.env.CHROMIUM_PATH || '/usr/bin/chromium'}: browser tests skipped (apt-get install -y chromium)`;
  if (process.env.CI) throw new Error(`${reason}. CI must run them.`);
  return reason;
}

/** launchChromium starts headless Chromium with flags that keep it off the network. */
export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium not found');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
