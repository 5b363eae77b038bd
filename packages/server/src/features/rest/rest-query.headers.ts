import { invalidSchema, invertedRange, unacceptableMediaType } from './rest-query.errors.js';
import type { Preferences, ResponseFormat } from './rest-query.types.js';

// The request headers of the data API: Prefer, Accept, Range/Range-Unit and
// Accept-Profile/Content-Profile.

/** RestHeaders are request headers as Node gives them (lower-case names) or a fetch Headers object. */
export type RestHeaders = Headers | Readonly<Record<string, string | string[] | undefined>>;

/** LowerCaseHeaders are request headers whose names are all lower-case, as Node gives them. */
export type LowerCaseHeaders = Readonly<Record<string, string | string[] | undefined>>;

const NO_HEADERS: LowerCaseHeaders = {};

/** lowerCased returns the headers with lower-case names: Node's as they are, others (tests, fetch) copied. */
export function lowerCased(headers: RestHeaders | undefined): LowerCaseHeaders {
  if (!headers) return NO_HEADERS;
  if (headers instanceof Headers) return Object.fromEntries(headers);
  for (const name in headers) {
    if (name !== name.toLowerCase()) {
      const copy: Record<string, string | string[] | undefined> = {};
      for (const [key, value] of Object.entries(headers)) copy[key.toLowerCase()] ??= value;
      return copy;
    }
  }
  return headers;
}

/** readHeader reads a lower-case header name, joining repeated ones with `, ` as Node does for Prefer. */
export function readHeader(headers: LowerCaseHeaders, lowerCaseName: string): string | undefined {
  const value = headers[lowerCaseName];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** headerValue reads one header by name, in any case. */
export function headerValue(headers: RestHeaders | undefined, name: string): string | undefined {
  return readHeader(lowerCased(headers), name.toLowerCase());
}

const RETURN = ['minimal', 'representation', 'headers-only'] as const;
const COUNT = ['exact', 'planned', 'estimated'] as const;
const RESOLUTION = ['merge-duplicates', 'ignore-duplicates'] as const;
const MISSING = ['default', 'null'] as const;

function oneOf<T extends string>(value: string, allowed: readonly T[]): T | null {
  return allowed.find((a) => a === value) ?? null;
}

/**
 * parsePrefer reads `Prefer` as a comma-separated list; unknown items and values are ignored (PostgREST's
 * lenient handling), and the first value of a preference wins.
 */
export function parsePrefer(header: string | undefined): Preferences {
  const prefer: Preferences = { return: null, count: null, resolution: null, missing: null };
  if (!header) return prefer;
  for (const item of header.split(',')) {
    const [rawName = '', rawValue = ''] = item.split('=', 2);
    const name = rawName.trim().toLowerCase();
    const value = rawValue.trim().toLowerCase();
    if (name === 'return') prefer.return ??= oneOf(value, RETURN);
    else if (name === 'count') prefer.count ??= oneOf(value, COUNT);
    else if (name === 'resolution') prefer.resolution ??= oneOf(value, RESOLUTION);
    else if (name === 'missing') prefer.missing ??= oneOf(value, MISSING);
  }
  return prefer;
}

/** preferenceApplied lists the honoured preferences for the `Preference-Applied` response header. */
export function preferenceApplied(prefer: Preferences): string {
  const applied = [
    prefer.return && `return=${prefer.return}`,
    prefer.count && `count=${prefer.count}`,
    prefer.resolution && `resolution=${prefer.resolution}`,
    prefer.missing && `missing=${prefer.missing}`,
  ];
  return applied.filter(Boolean).join(', ');
}

const MEDIA_TYPES: Record<string, ResponseFormat> = {
  'application/json': 'json',
  'application/*': 'json',
  '*/*': 'json',
  'application/vnd.pgrst.object+json': 'object',
  'application/vnd.pgrst.object': 'object',
  'text/csv': 'csv',
};

/**
 * parseAccept picks the response format from `Accept` (absent or empty: JSON). Types are tried by quality
 * and then in order; parameters other than q are ignored. None producible → PGRST107.
 */
export function parseAccept(header: string | undefined): ResponseFormat {
  if (header === undefined || header.trim() === '') return 'json';
  // The values supabase-js sends need no ranking.
  const exact = Object.hasOwn(MEDIA_TYPES, header) ? MEDIA_TYPES[header] : undefined;
  if (exact) return exact;
  const offered = header
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim());
      const q = params.find((p) => p.toLowerCase().startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { type: type.toLowerCase(), raw: type, quality: Number.isNaN(quality) ? 0 : quality, index };
    })
    .filter((m) => m.type !== '');
  const ranked = offered.filter((m) => m.quality > 0).sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const m of ranked) {
    const format = MEDIA_TYPES[m.type];
    if (format) return format;
  }
  throw unacceptableMediaType(offered.map((m) => m.raw));
}

/** checkProfile refuses an Accept-Profile or Content-Profile other than `public` (PGRST106). */
export function checkProfile(headers: LowerCaseHeaders): void {
  for (const name of PROFILE_HEADERS) {
    const value = readHeader(headers, name)?.trim();
    if (value !== undefined && value !== '' && value !== 'public') throw invalidSchema(value);
  }
}

const PROFILE_HEADERS = ['accept-profile', 'content-profile'];

/** HeaderRange is the rows a Range header asks for: from `lower` to `upper` (inclusive) or to the end. */
export interface HeaderRange {
  lower: number;
  upper: number | null;
}

const RANGE = /^(\d+)-(\d*)$/;

/**
 * parseRangeHeader reads `Range: 0-9` / `Range: 10-` (unit `items`, the only one). Like PostgREST, a value
 * it cannot read, or another Range-Unit, is ignored; a lower bound past the upper one is PGRST103.
 */
export function parseRangeHeader(range: string | undefined, unit: string | undefined): HeaderRange | null {
  if (range === undefined) return null;
  if (unit !== undefined && unit.trim().toLowerCase() !== 'items') return null;
  const m = RANGE.exec(range.trim().replace(/^items=/i, ''));
  if (!m) return null;
  const lower = Math.min(Number(m[1]), Number.MAX_SAFE_INTEGER);
  const upper = m[2] === '' || m[2] === undefined ? null : Math.min(Number(m[2]), Number.MAX_SAFE_INTEGER);
  if (upper !== null && upper < lower) throw invertedRange();
  return { lower, upper };
}
