import stem from 'wink-porter2-stemmer';

// PostgreSQL's text search, as far as SQLite needs it to answer `fts`/`plfts`/`phfts`/`wfts` with the same rows:
// a document becomes lexemes with positions as `to_tsvector('english' | 'simple', text)` makes them. PostgreSQL's
// default parser knows more token kinds (URLs, e-mails, XML tags); words, numbers and hyphenated words — what
// app text is made of — are read as it reads them: each token takes a position, stop words too, and a hyphenated
// word gives the whole word, then its parts. English stems with Snowball's English (Porter2) stemmer, as
// PostgreSQL's english_stem does, after its stop-word list; `simple` only folds case.

/** PG_TEXT_SEARCH_CONFIGS are the configurations a stock PostgreSQL has (pg_ts_config). */
export const PG_TEXT_SEARCH_CONFIGS: ReadonlySet<string> = new Set(
  'arabic armenian basque catalan danish dutch english finnish french german greek hindi hungarian indonesian irish italian lithuanian nepali norwegian portuguese romanian russian serbian simple spanish swedish tamil turkish yiddish'.split(
    ' ',
  ),
);

/** EMULATED_CONFIGS are the configurations the SQLite emulation reads like PostgreSQL. */
export const EMULATED_CONFIGS: ReadonlySet<string> = new Set(['english', 'simple']);

/** DEFAULT_CONFIG is the configuration of documents, and of queries that name none (Supabase's default). */
export const DEFAULT_CONFIG = 'english';

// PostgreSQL's tsearch_data/english.stop.
const ENGLISH_STOP_WORDS = new Set(
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now'.split(
    ' ',
  ),
);

// A token: letters and digits, or such runs joined by hyphens (a hyphenated word).
const TOKEN = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
const DIGITS = /^\p{N}+$/u;
const LETTERS = /^[\p{L}-]+$/u;

/** lexemeOf is a token's lexeme in a configuration, or null for a stop word (which still takes a position). */
export function lexemeOf(token: string, config: string): string | null {
  const lower = token.toLowerCase();
  // Numbers and words mixing letters and digits go to the simple dictionary in the english configuration too.
  if (config === 'simple' || DIGITS.test(lower) || !LETTERS.test(lower)) return lower;
  if (ENGLISH_STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/**
 * tokenGroups splits text into PostgreSQL's tokens, grouped: a hyphenated word is one group of the whole word
 * and its parts, any other word a group of one. Each token takes the next position.
 */
export function tokenGroups(text: string): string[][] {
  const groups: string[][] = [];
  for (const match of text.matchAll(TOKEN)) {
    const word = match[0];
    groups.push(word.includes('-') ? [word, ...word.split('-')] : [word]);
  }
  return groups;
}

/** TsVector maps each lexeme of a document to its positions, in order (positions count from 1). */
export type TsVector = Map<string, number[]>;

/** toTsVector is `to_tsvector(config, text)`. */
export function toTsVector(text: string, config: string = DEFAULT_CONFIG): TsVector {
  const vector: TsVector = new Map();
  let position = 0;
  for (const group of tokenGroups(text)) {
    for (const token of group) {
      position++;
      const lexeme = lexemeOf(token, config);
      if (lexeme === null) continue;
      const positions = vector.get(lexeme);
      if (positions) positions.push(position);
      else vector.set(lexeme, [position]);
    }
  }
  return vector;
}
