import { describe, expect, it } from 'vitest';
import { entriesOfV2, pagesByCursor } from './storage-files.queries';

describe('the file browser listing', () => {
  it('names list v2 entries within the folder, folders where their first name stood', () => {
    const entries = entriesOfV2('photos/', {
      folders: [{ name: 'photos/b/' }],
      objects: [
        { name: 'photos/a.png', id: '1', metadata: { size: 3 } },
        { name: 'photos/b.png', id: '2', metadata: null },
        { name: 'photos/c.png', id: '3', metadata: null },
      ],
    });
    // `b.png` scans before `b/…` ('.' sorts before '/').
    expect(entries).toEqual([
      { name: 'a.png', id: '1', metadata: { size: 3 } },
      { name: 'b.png', id: '2', metadata: null },
      { name: 'b', id: null, metadata: null },
      { name: 'c.png', id: '3', metadata: null },
    ]);
  });

  it('pages by cursor in name order only', () => {
    expect(pagesByCursor({ column: 'name', order: 'asc' })).toBe(true);
    expect(pagesByCursor({ column: 'name', order: 'desc' })).toBe(false);
    expect(pagesByCursor({ column: 'updated_at', order: 'asc' })).toBe(false);
  });
});
