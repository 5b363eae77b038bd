import { buildConsole } from '../scripts/build.mjs';
import { browserSkipReason } from './support/chromium.js';

/** setup builds the console once before the browser tests, unless they will be skipped. */
export default async function setup(): Promise<void> {
  const skip = browserSkipReason();
  if (skip) {
    console.warn(skip);
    return;
  }
  await buildConsole();
}
