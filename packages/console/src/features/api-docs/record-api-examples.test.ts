import type { ColumnType, TableSchema } from '@basalt/shared';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PLACEHOLDER,
  curlExample,
  type ExampleTable,
  javascriptExample,
  pythonExample,
  recordsUrl,
} from './record-api-examples';

const column = (type: ColumnType, required = false, unique = false) => ({ type, required, unique });

// Every type, and names that are keywords or odd elsewhere (JavaScript, Python, the shell).
const schema: TableSchema = {
  id: column('number', true, true),
  title: column('text', true),
  qty: column('number'),
  done: column('boolean'),
  due_at: column('date'),
  meta: column('json'),
  tags: column('array'),
  class: column('text'),
  None: column('boolean'),
  HTTPStatus: column('text', false, true),
};
const orders: ExampleTable = { name: 'Orders_2025', schema, origin: 'https://basalt.example:8443' };
const created = {
  title: 'Hello from the API',
  qty: 3,
  done: true,
  due_at: '2025-01-15T09:30:00.000Z',
  meta: { source: 'api', version: 1 },
  tags: ['new', 'featured'],
  class: 'Example class',
  None: true,
  HTTPStatus: 'active',
};

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

// Runs the JavaScript example as the ES module it is, against a fetch that answers like the record API.
async function runJavaScript(code: string) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    calls.push({ method: init.method, url, headers: init.headers, body: init.body && JSON.parse(init.body) });
    const record = { id: 7, ...created, created_at: 'now', updated_at: 'now' };
    const body =
      init.method === 'DELETE'
        ? { success: true, message: 'Record deleted successfully' }
        : url.includes('?')
          ? [record]
          : record;
    return { ok: true, status: init.method === 'POST' ? 201 : 200, json: async () => body };
  };
  const logged: unknown[][] = [];
  const console = { log: (...args: unknown[]) => logged.push(args) };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  await new AsyncFunction('fetch', 'console', code)(fetch, console);
  return { calls, logged };
}

describe('the JavaScript example', () => {
  it('creates, reads, lists, updates and deletes one record with the real columns and origin', async () => {
    const code = javascriptExample(orders);
    expect(code).toContain(`const API_KEY = '${API_KEY_PLACEHOLDER}';`);
    const { calls, logged } = await runJavaScript(code);
    const base = 'https://basalt.example:8443/api/table/Orders_2025';
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST ${base}`,
      `GET ${base}/7`,
      `GET ${base}?limit=10&orderBy=id&order=desc`,
      `PATCH ${base}/7`,
      `DELETE ${base}/7`,
    ]);
    expect(calls[0]?.body).toEqual(created);
    expect(calls[3]?.body).toEqual({ title: 'Hello from the API (updated)' });
    expect(calls.every((c) => c.headers.Authorization === `Bearer ${API_KEY_PLACEHOLDER}`)).toBe(true);
    // A JSON content type only where there is a body: the server refuses an empty JSON body.
    expect(calls.map((c) => c.headers['Content-Type'] ?? null)).toEqual([
      'application/json',
      null,
      null,
      'application/json',
      null,
    ]);
    expect(logged.map((line) => line[0])).toEqual([
      'Created',
      'Read',
      'Listed 1 records',
      'Updated',
      expect.anything(),
    ]);
  });

  it('throws the error code and message the server answers', async () => {
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
    const failing = async () => ({
      ok: false,
      status: 401,
      json: async () => ({ error: { code: 'INVALID_API_KEY', message: 'Missing or invalid API key', details: null } }),
    });
    await expect(new AsyncFunction('fetch', 'console', javascriptExample(orders))(failing, console)).rejects.toThrow(
      '401 INVALID_API_KEY: Missing or invalid API key',
    );
  });
});

describe('the Python example', () => {
  it('uses requests with the real URL and writes the body as a Python dict', () => {
    const code = pythonExample(orders);
    expect(code).toContain('import requests');
    expect(code).toContain(`API_KEY = "${API_KEY_PLACEHOLDER}"`);
    expect(code).toContain('BASE_URL = "https://basalt.example:8443/api/table/Orders_2025"');
    expect(code).toContain('    "done": True,');
    expect(code).toContain('    "meta": {"source": "api", "version": 1},');
    expect(code).toContain('    "None": True,');
    expect(code).toContain(
      'print("Updated", call("PATCH", f"/{created[\'id\']}", {"title": "Hello from the API (updated)"}))',
    );
    expect(code).not.toMatch(/\btrue\b|\bnull\b/);
  });
});

describe('the cURL example', () => {
  it('sends the body as one quoted JSON word, a field per line, and reads the new id from the answer', () => {
    const code = curlExample(orders);
    const body = code.slice(code.indexOf("-d '") + 4, code.indexOf("')"));
    expect(JSON.parse(body)).toEqual(created);
    expect(body.split('\n')).toHaveLength(Object.keys(created).length + 2);
    expect(code).toContain(`BASALT_API_KEY='${API_KEY_PLACEHOLDER}'`);
    expect(code).toContain(`BASE_URL='https://basalt.example:8443/api/table/Orders_2025'`);
    expect(code).toContain(`  -d '{"title":"Hello from the API (updated)"}'`);
    expect(code).toContain(`RECORD_ID=$(echo "$RECORD" | sed -n 's/^{"id":\\([0-9]*\\).*/\\1/p')`);
    expect(code).toContain(
      `curl -sS -w '\\n' -X DELETE "$BASE_URL/$RECORD_ID" -H "Authorization: Bearer $BASALT_API_KEY"`,
    );
  });

  it('works for a table without columns of its own', () => {
    const bare: ExampleTable = { ...orders, schema: { id: column('number', true, true) } };
    expect(curlExample(bare)).toContain("-d '{}')");
    expect(javascriptExample(bare)).toContain("const created = await call('POST', '', {});");
    expect(pythonExample(bare)).toContain('created = call("POST", body={})');
  });
});

describe('recordsUrl', () => {
  it('is the table under /api/table on the origin', () => {
    expect(recordsUrl('http://localhost:8787', 'todos')).toBe('http://localhost:8787/api/table/todos');
  });
});
