import type { TableResponse } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { embedExamples } from './embed-examples';

const stamp = { description: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
const text = { type: 'text' as const, required: false, unique: false };
const ref = (table: string, label?: string) => ({
  type: 'number' as const,
  required: false,
  unique: false,
  references: { table, onDelete: 'restrict' as const, ...(label ? { label } : {}) },
});

describe('embedExamples', () => {
  it('is empty without references', () => {
    expect(embedExamples([{ id: 1, name: 'notes', schema: { body: text }, ...stamp }], 'https://x')).toEqual([]);
  });

  it('embeds the referenced row by its label and counts the rows pointing back, per reference column', () => {
    const authors = { id: 1, name: 'authors', schema: { name: text }, ...stamp };
    const posts = {
      id: 2,
      name: 'posts',
      schema: { title: text, author_id: ref('authors'), editor: ref('authors', 'name') },
      ...stamp,
    };
    const [first, second] = embedExamples([authors, posts] as TableResponse[], 'https://db.example');
    expect(first?.title).toBe('posts.author_id → authors');
    expect(first?.js).toContain(`supabase.from("posts").select("id, title, author:authors!author_id(id, name)")`);
    expect(first?.js).toContain(`supabase.from("authors").select("id, name, posts!author_id(count)")`);
    expect(first?.curl).toContain('https://db.example/rest/v1/posts?select=id,title,author:authors!author_id(id,name)');
    expect(second?.js).toContain('editor:authors!editor(id, name)');
  });
});
