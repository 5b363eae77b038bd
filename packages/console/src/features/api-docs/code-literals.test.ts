import { describe, expect, it } from 'vitest';
import { curlJson, jsLiteral, jsonText, pyLiteral, shellQuote } from './code-literals';

describe('code literals', () => {
  it('writes short JavaScript values on one line and long ones one entry per line', () => {
    expect(jsLiteral({ title: 'Hi', done: false, meta: null, tags: ['a'] })).toBe(
      "{ title: 'Hi', done: false, meta: null, tags: ['a'] }",
    );
    expect(jsLiteral({ a: 'x'.repeat(50), b: 'y'.repeat(50) })).toBe(
      `{\n  a: '${'x'.repeat(50)}',\n  b: '${'y'.repeat(50)}',\n}`,
    );
    expect(jsLiteral({})).toBe('{}');
  });

  it('quotes what needs quoting in JavaScript and evaluates back to the same value', () => {
    const value = { "it's": 'O\'Brien \\ "quoted"\n', 'with-dash': [1.5, -2, true], nested: { deeper: { x: 1 } } };
    const written = jsLiteral(value);
    expect(written).toContain("'it\\'s'");
    expect(written).toContain("'with-dash'");
    expect(new Function(`return (${written});`)()).toEqual(value);
  });

  it('writes Python with True, False and None, 4-space indents and double quotes', () => {
    expect(pyLiteral({ done: true, off: false, none: null, n: 3 })).toBe(
      '{"done": True, "off": False, "none": None, "n": 3}',
    );
    expect(pyLiteral({ a: 'x'.repeat(50), b: ['y'.repeat(50)] })).toBe(
      `{\n    "a": "${'x'.repeat(50)}",\n    "b": ["${'y'.repeat(50)}"],\n}`,
    );
  });

  it('writes JSON an entry per line with what fits inside on one line, and no trailing commas', () => {
    const value = { id: 1, meta: { a: 1 }, tags: ['x'], none: null };
    const text = jsonText(value);
    expect(text).toBe('{\n  "id": 1,\n  "meta": {"a": 1},\n  "tags": ["x"],\n  "none": null\n}');
    expect(JSON.parse(text)).toEqual(value);
    expect(jsonText([])).toBe('[]');
  });

  it('writes a curl body on one line when short, else a field per line, quoted for the shell', () => {
    expect(curlJson({ title: 'Hi' })).toBe(`'{"title":"Hi"}'`);
    expect(curlJson({ title: 'x'.repeat(60), qty: 1 })).toBe(
      `'{\n    "title": "${'x'.repeat(60)}",\n    "qty": 1\n  }'`,
    );
    expect(curlJson({ note: "it's" })).toBe(`'{"note":"it'\\''s"}'`);
  });

  it('quotes one shell word, a single quote included', () => {
    expect(shellQuote('{"a":"b"}')).toBe(`'{"a":"b"}'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
