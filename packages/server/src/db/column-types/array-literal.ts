/** ArrayLiteralElement is one element of a PostgreSQL array literal and whether it was double-quoted. */
export interface ArrayLiteralElement {
  text: string;
  quoted: boolean;
}

/**
 * parseArrayLiteral reads a one-dimensional PostgreSQL array literal as query strings carry it (`{a,b}`,
 * `{"a,b",c}`, `{}`): elements are separated by commas, double quotes protect `,{}"` and spaces, a backslash
 * escapes the next character, and unquoted elements are trimmed. Returns null when the text is not one.
 */
export function parseArrayLiteral(text: string): ArrayLiteralElement[] | null {
  const source = text.trim();
  if (!source.startsWith('{') || !source.endsWith('}') || source.length < 2) return null;
  const body = source.slice(1, -1);
  if (body.trim() === '') return [];
  const elements: ArrayLiteralElement[] = [];
  let i = 0;
  while (i <= body.length) {
    while (body[i] === ' ' || body[i] === '\t') i++;
    if (body[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const c = body[i];
        if (c === undefined) return null;
        if (c === '\\') {
          const next = body[i + 1];
          if (next === undefined) return null;
          value += next;
          i += 2;
        } else if (c === '"') {
          i++;
          break;
        } else {
          value += c;
          i++;
        }
      }
      while (body[i] === ' ' || body[i] === '\t') i++;
      elements.push({ text: value, quoted: true });
    } else {
      let value = '';
      while (i < body.length && body[i] !== ',') {
        const c = body[i];
        if (c === '{' || c === '}' || c === '"') return null;
        if (c === '\\') {
          const next = body[i + 1];
          if (next === undefined) return null;
          value += next;
          i += 2;
          continue;
        }
        value += c;
        i++;
      }
      const trimmed = value.trim();
      // PostgreSQL refuses an empty unquoted element (`{a,,b}`); so do we.
      if (trimmed === '') return null;
      elements.push({ text: trimmed, quoted: false });
    }
    if (i >= body.length) break;
    if (body[i] !== ',') return null;
    i++;
    if (i >= body.length) return null;
  }
  return elements;
}
