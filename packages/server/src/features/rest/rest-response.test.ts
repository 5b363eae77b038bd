import { describe, expect, it } from 'vitest';
import { checkSingular, rangeHeader, readStatus } from './rest-response.js';

// The response arithmetic of the data API, without a server.

describe('response arithmetic', () => {
  it.each([
    [0, 10, null, '0-9/*'],
    [0, 10, 57, '0-9/57'],
    [20, 5, 25, '20-24/25'],
    [0, 0, 0, '*/0'],
    [5, 0, null, '*/*'],
  ])('Content-Range of offset %i, %i rows, total %s is %s', (offset, rows, total, expected) => {
    expect(rangeHeader(offset, rows, total)).toBe(expected);
  });

  it.each([
    [0, 10, null, 200],
    [0, 10, 57, 206],
    [0, 57, 57, 200],
    [0, 0, 0, 200],
    [25, 0, 25, 206],
  ])('offset %i with %i rows of %s: %i', (offset, rows, total, status) => {
    expect(readStatus(offset, rows, total)).toBe(status);
  });

  it('answers 416 PGRST103 past the total and 406 PGRST116 for a non-single result', () => {
    expect(() => readStatus(30, 0, 25)).toThrow(
      expect.objectContaining({
        status: 416,
        code: 'PGRST103',
        details: expect.objectContaining({ details: 'An offset of 30 was requested, but there are only 25 rows.' }),
      }),
    );
    expect(() => checkSingular('object', 2)).toThrow(expect.objectContaining({ status: 406, code: 'PGRST116' }));
    expect(() => checkSingular('json', 2)).not.toThrow();
  });
});
