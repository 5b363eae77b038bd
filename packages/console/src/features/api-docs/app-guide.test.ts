import type { TableResponse } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import { guideSnippets, guideTable } from './app-guide';

const col = (type: 'text' | 'number' | 'boolean', required = false) => ({ type, required, unique: false });

const notes: TableResponse = {
  id: 1,
  name: 'notes',
  description: null,
  schema: { id: { type: 'number', required: true, unique: true }, body: col('text') },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const todos: TableResponse = {
  ...notes,
  id: 2,
  name: 'todos',
  schema: { id: { type: 'number', required: true, unique: true }, title: col('text', true), owner: col('text') },
  access: { select: 'own', insert: 'own', update: 'own', delete: 'own', ownerColumn: 'owner' },
};

describe('the /documentation guide', () => {
  it('queries the first table with own-rows rules, else the first table', () => {
    expect(guideTable([notes, todos])?.name).toBe('todos');
    expect(guideTable([notes])?.name).toBe('notes');
    expect(guideTable([])).toBeNull();
  });

  it('fills the snippets with the real URL, anon key and table, leaves the owner to Basalt, and never the service key', () => {
    const code = guideSnippets({ url: 'https://db.example', anonKey: 'eyJanon', table: todos });
    expect(code.connect).toContain('createClient("https://db.example", "eyJanon")');
    expect(code.select).toContain('supabase.from("todos")');
    expect(code.insert).toContain('title');
    expect(code.insert).not.toContain('owner:');
    expect(code.insert).toContain("Basalt fills in owner with the user's id");
    expect(code.server).toContain('process.env.BASALT_SERVICE_KEY');
    expect(Object.values(code).join('\n')).not.toContain('service_role');
  });

  it('has a todos example when there is no table yet', () => {
    const code = guideSnippets({ url: 'http://localhost:8787', anonKey: 'k', table: null });
    expect(code.select).toContain('supabase.from("todos")');
  });
});
