import { RE2JS, RE2JSException } from 're2js';

// Regular expressions of `match` / `imatch` on SQLite, in linear time.
//
// SQLite has no regex operator: Basalt evaluates them in a synchronous SQL function, so a backtracking engine
// would let one request (`title=match.^(a+)+$` over a long value) freeze the whole process. They run on RE2
// (re2js, a pure-JavaScript port: no native build), whose automata match in time linear in the text; the
// price is RE2's syntax, which has no backreferences and no lookaround, so such patterns are refused with a
// 400 that says so. Considered and not taken: V8's experimental linear engine (`--enable-experimental-regexp-
// engine`, the `l` flag), which cannot run case-insensitive or Unicode patterns, so imatch would have had no
// linear path, and which is a process-wide V8 flag.
//
// PostgreSQL runs its own engine (the pool's statement_timeout bounds it); both engines refuse patterns longer
// than MAX_REGEX_LENGTH. Flags follow PostgreSQL's defaults: `.` matches a newline, `^`/`$` anchor the text.

/** MAX_REGEX_LENGTH caps a match/imatch pattern: compile time and automaton size grow with it. */
export const MAX_REGEX_LENGTH = 1000;

/** RegexRefusal is why a pattern is refused: a message and a hint for the client. */
export interface RegexRefusal {
  message: string;
  hint: string;
}

/** LINEAR_REGEX_HINT tells a client what the SQLite engine's regular expressions cannot do. */
const LINEAR_REGEX_HINT =
  'match and imatch run in linear time with RE2 syntax: backreferences (\\1) and lookaround ((?=…), (?<=…)) are not supported';

/** tooLong refuses a pattern over MAX_REGEX_LENGTH (on every engine). */
export function tooLong(pattern: string): RegexRefusal | null {
  if (pattern.length <= MAX_REGEX_LENGTH) return null;
  return {
    message: `The regular expression is ${pattern.length} characters long; at most ${MAX_REGEX_LENGTH} are allowed`,
    hint: 'Shorten the pattern, or filter with eq, in or like',
  };
}

const compiled = new Map<string, RE2JS>();
const CACHE_SIZE = 500;

/** InvalidPatternError is a regular expression (match/imatch) that cannot be compiled or run in linear time. */
export class InvalidPatternError extends Error {
  constructor(readonly refusal: RegexRefusal) {
    super(refusal.message);
    this.name = 'InvalidPatternError';
  }
}

/** compileLinearRegex compiles (and caches) a pattern with RE2, or throws InvalidPatternError. */
export function compileLinearRegex(pattern: string, caseInsensitive: boolean): RE2JS {
  const key = `${caseInsensitive ? 'i' : 's'}${pattern}`;
  let regex = compiled.get(key);
  if (regex) return regex;
  const long = tooLong(pattern);
  if (long) throw new InvalidPatternError(long);
  try {
    regex = RE2JS.compile(pattern, RE2JS.DOTALL | (caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0));
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const reason = error.message.replace(/^error parsing regexp: /, '');
    throw new InvalidPatternError({ message: `invalid regular expression: ${reason}`, hint: LINEAR_REGEX_HINT });
  }
  if (compiled.size >= CACHE_SIZE) compiled.clear();
  compiled.set(key, regex);
  return regex;
}

/** linearRegexRefusal returns why RE2 cannot run a pattern, or null when it can. */
export function linearRegexRefusal(pattern: string, caseInsensitive: boolean): RegexRefusal | null {
  try {
    compileLinearRegex(pattern, caseInsensitive);
    return null;
  } catch (error) {
    if (error instanceof InvalidPatternError) return error.refusal;
    throw error;
  }
}
