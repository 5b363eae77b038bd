// Results as CSV (RFC 4180): the columns of every row in first-seen order, quotes doubled, and cells that a
// spreadsheet would run as a formula (starting with = + - @) prefixed with an apostrophe.

const FORMULA = /^[=+\-@\t\r]/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** columnsOf lists the columns of result rows, in the order they first appear. */
export function columnsOf(rows: Array<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** toCsv renders result rows as CSV text with a header line. */
export function toCsv(rows: Array<Record<string, unknown>>): string {
  const columns = columnsOf(rows);
  const lines = [columns.map(cell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** displayValue is how a result cell reads in the console: null empty, objects as JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
