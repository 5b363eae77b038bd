import { CSRF_COOKIE, SESSION_COOKIE } from '../../http/principal.js';

// Functions answer on the console's own origin, so what a function receives and sends is kept from reaching the
// console's credentials:
//   - the console's session and CSRF cookies are taken out of the Cookie header a function receives (with them
//     a function's author could act as whoever opened its URL in a browser); other cookies pass;
//   - a function may not set those cookies, and its answers are sandboxed (`Content-Security-Policy: sandbox`):
//     a page a function serves runs in an opaque origin, away from the console's storage; HTML is answered as
//     text/plain, as Supabase does on its shared domains.

const CONSOLE_COOKIES = new Set([SESSION_COOKIE, CSRF_COOKIE]);
const ACTIVE_CONTENT = /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)\b/i;

/** withoutConsoleCookies removes the console's cookies from a Cookie header; null when nothing is left. */
export function withoutConsoleCookies(header: string): string | null {
  const kept = header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair && !CONSOLE_COOKIES.has(pair.slice(0, pair.indexOf('=') >>> 0).trim()));
  return kept.length > 0 ? kept.join('; ') : null;
}

/** safeResponseHeaders filters a function's response headers for the console's origin and adds the sandbox. */
export function safeResponseHeaders(headers: Array<[string, string]>): Array<[string, string]> {
  const safe: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    if (name === 'set-cookie' && CONSOLE_COOKIES.has(value.slice(0, value.indexOf('=') >>> 0).trim())) continue;
    if (name === 'content-type' && ACTIVE_CONTENT.test(value)) {
      safe.push([name, 'text/plain; charset=utf-8']);
      continue;
    }
    safe.push([name, value]);
  }
  safe.push(['content-security-policy', 'sandbox'], ['x-content-type-options', 'nosniff']);
  return safe;
}
