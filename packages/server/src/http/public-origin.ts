import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

// The address a person reached this server at, for what the server writes down for them when SITE_URL is unset
// (mail links, where they land, the OAuth callback): "one app URL everywhere", as the console shows it (SITE_URL,
// else the address the console was opened at). Only a Host naming this machine is taken (loopback, its host
// name, one of its interface addresses, at any port: Docker maps ports): a mail link built from any Host a
// client sends would let anyone mail a victim a reset link to their own site (Host header poisoning). Behind a
// proxy, or under another name, set SITE_URL.

// The current request's headers; the origin is worked out only when a mail or redirect asks for it.
const calls = new AsyncLocalStorage<IncomingHttpHeaders>();

// host[:port] or [v6]:port; the name is compared in lower case.
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

let cachedNames: Set<string> | null = null;

// This machine's names and addresses, read once (an interface added later is not known until a restart).
function localNames(): Set<string> {
  if (cachedNames) return cachedNames;
  const names = new Set(['localhost', '127.0.0.1', '[::1]', hostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces())) {
    for (const address of list ?? []) names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
  }
  cachedNames = names;
  return names;
}

/** localOriginOf is `http://<Host>` when the request's Host names this machine, else null. */
export function localOriginOf(headers: IncomingHttpHeaders, names: ReadonlySet<string> = localNames()): string | null {
  const host = headers.host;
  const m = typeof host === 'string' ? HOST_HEADER.exec(host.trim()) : null;
  if (!m?.[1]) return null;
  const name = m[1].toLowerCase();
  if (!names.has(name) && !name.endsWith('.localhost')) return null;
  return `http://${name}${m[2] ? `:${m[2]}` : ''}`;
}

/** withCallOrigin runs a route's handler knowing the address its request reached this server at (see above). */
export function withCallOrigin<T>(headers: IncomingHttpHeaders, run: () => T): T {
  return calls.run(headers, run);
}

/**
 * publicSiteUrl is the URL to write into mails and redirects: SITE_URL when set, else the address the current
 * request reached this server at when that names this machine, else the default (`http://localhost:<port>`).
 */
export function publicSiteUrl(config: { siteUrl: string; siteUrlConfigured: boolean }): string {
  if (config.siteUrlConfigured) return config.siteUrl;
  const headers = calls.getStore();
  return (headers && localOriginOf(headers)) ?? config.siteUrl;
}
