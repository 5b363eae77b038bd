import { API_KEY_PREFIX } from '@basalt/shared';

// Nothing secret may reach system_logs: the entries are shown in the console and kept for days. The entries
// Basalt writes are built from safe facts (a path without its query string, a status, ids), and this is the
// second line of defence for what comes from elsewhere (an error's message, a context object): values under a
// secret-sounding key are replaced, and tokens, API keys and `password=…` pairs inside text are masked.

/** REDACTED replaces a secret. */
export const REDACTED = '[redacted]';

/** Bounds of one entry: longer text is cut, deeper or wider context is summarised. */
export const ENTRY_LIMITS = { messageChars: 1000, stringChars: 2000, contextChars: 8000, depth: 5, items: 50 };

const SECRET_KEY = /authorization|api[-_]?key|cookie|passw|secret|token|credential|private|signature/i;

// Most text holds nothing secret-looking: one cheap test skips the masking pass.
const SUSPECT = new RegExp(`bearer|basic|eyj|passw|secret|token|key|signature|${API_KEY_PREFIX}`, 'i');

// One pass over a string: a bearer credential, a JWT, a Basalt API key, or a `name=value` / `name: value` pair
// (also a query parameter) whose name sounds secret. The name's parts are bounded so that the pass stays linear.
const SECRET_TEXT = new RegExp(
  [
    String.raw`\b(bearer|basic)\s+[\w.~+/=-]+`,
    String.raw`\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*`,
    `${API_KEY_PREFIX}[\\w-]+`,
    String.raw`\b([\w.-]{0,40}?(?:passw(?:or)?d|secret|token|api[-_]?key|signature)[\w.-]{0,40})(["']?\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&,;"']+)`,
  ].join('|'),
  'gi',
);

/** redactText masks credentials inside free text and cuts it to `max` characters. */
export function redactText(text: string, max: number = ENTRY_LIMITS.stringChars): string {
  // PostgreSQL text cannot hold NUL.
  const cut = text.length > max ? text.slice(0, max) : text;
  let clean = cut.includes('\u0000') ? cut.replaceAll('\u0000', '') : cut;
  if (SUSPECT.test(clean)) {
    clean = clean.replace(SECRET_TEXT, (match, scheme?: string, name?: string, separator?: string) => {
      if (scheme) return `${scheme} ${REDACTED}`;
      if (name) return `${name}${separator}${REDACTED}`;
      if (match.startsWith(API_KEY_PREFIX)) return `${API_KEY_PREFIX}${REDACTED}`;
      return REDACTED;
    });
  }
  return cut === text ? clean : `${clean}…`;
}

/** redactValue copies a context value with secret-named keys replaced, text masked and size bounded. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') return undefined;
  if (depth >= ENTRY_LIMITS.depth) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, ENTRY_LIMITS.items).map((item) => redactValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  let count = 0;
  for (const [key, item] of Object.entries(value)) {
    if (count++ >= ENTRY_LIMITS.items) break;
    copy[key] = SECRET_KEY.test(key) ? REDACTED : redactValue(item, depth + 1);
  }
  return copy;
}

/** contextJson renders an entry's context for storage: redacted, and summarised when it is too long. */
export function contextJson(context: Record<string, unknown> | undefined): string {
  if (!context) return '{}';
  const json = JSON.stringify(redactValue(context)) ?? '{}';
  if (json.length <= ENTRY_LIMITS.contextChars) return json;
  return JSON.stringify({ truncated: true, preview: json.slice(0, ENTRY_LIMITS.contextChars) });
}
