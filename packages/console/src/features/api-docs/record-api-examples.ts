import type { TableSchema } from '@basalt/shared';
import { curlJson, jsLiteral, pyLiteral, shellQuote } from './code-literals';
import { samplePatch, sampleRecord } from './record-samples';

// The Record API page's Examples: one complete program per language that runs
// as shown once the API key is pasted in. Each creates a record with the table's real columns, reads it back,
// lists the newest records, changes the record and deletes it again, so running it twice works (unique
// columns included) and leaves the table as it was. JavaScript uses fetch, Python `requests`, cURL a POSIX shell.

/** API_KEY_PLACEHOLDER is what the examples show where the reader's API key goes. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** LIST_QUERY is the query string the examples list with: the ten newest records. */
export const LIST_QUERY = '?limit=10&orderBy=id&order=desc';

/** ExampleTable is what the examples are generated from: the table and where the server is. */
export interface ExampleTable {
  name: string;
  schema: TableSchema;
  /** origin is the server's origin as the reader's browser sees it (window.location.origin). */
  origin: string;
}

/** recordsUrl is the table's collection URL on the public record API. */
export function recordsUrl(origin: string, tableName: string): string {
  return `${origin}/api/table/${encodeURIComponent(tableName)}`;
}

/** javascriptExample is the table's example as an ES module using fetch (Node.js 18+ or a browser). */
export function javascriptExample({ name, schema, origin }: ExampleTable): string {
  const createCall = "const created = await call('POST', '', ";
  const patchCall = `console.log('Updated', await call('PATCH', \`/\${created.id}\`, `;
  const created = jsLiteral(sampleRecord(schema), '', createCall.length);
  const patch = jsLiteral(samplePatch(schema), '', patchCall.length);
  return `// The record API of "${name}" with fetch (Node.js 18 or newer).
// Save as records.mjs and run \`node records.mjs\`.
// Paste an API key from the API page; keep keys out of code that runs in a browser.
const API_KEY = '${API_KEY_PLACEHOLDER}';
const BASE_URL = '${recordsUrl(origin, name)}';

async function call(method, path = '', body) {
  const headers = { Authorization: \`Bearer \${API_KEY}\` };
  // Only a request with a body says it sends JSON: the server refuses an empty JSON body.
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(BASE_URL + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(\`\${response.status} \${data.error.code}: \${data.error.message}\`);
  return data;
}

// Create a record: the answer is the new record, with its id
${createCall}${created});
console.log('Created', created);

// Read it back
console.log('Read', await call('GET', \`/\${created.id}\`));

// List the newest records (limit, offset, orderBy, order)
const records = await call('GET', '${LIST_QUERY}');
console.log(\`Listed \${records.length} records\`);

// Change the fields sent (PUT replaces every field instead)
${patchCall}${patch}));

// Delete it
console.log(await call('DELETE', \`/\${created.id}\`));
`;
}

/** pythonExample is the table's example as a Python 3 script using requests. */
export function pythonExample({ name, schema, origin }: ExampleTable): string {
  const createCall = 'created = call("POST", body=';
  const patchCall = 'print("Updated", call("PATCH", f"/{created[\'id\']}", ';
  const created = pyLiteral(sampleRecord(schema), '', createCall.length);
  const patch = pyLiteral(samplePatch(schema), '', patchCall.length);
  return `# The record API of "${name}" with requests (pip install requests).
# Save as records.py and run \`python3 records.py\`.
# Paste an API key from the API page; keep keys out of code you publish.
import requests

API_KEY = "${API_KEY_PLACEHOLDER}"
BASE_URL = "${recordsUrl(origin, name)}"


def call(method, path="", body=None):
    response = requests.request(
        method,
        BASE_URL + path,
        json=body,
        headers={"Authorization": f"Bearer {API_KEY}"},
        timeout=30,
    )
    data = response.json()
    if not response.ok:
        raise RuntimeError(f"{response.status_code} {data['error']['code']}: {data['error']['message']}")
    return data


# Create a record: the answer is the new record, with its id
${createCall}${created})
print("Created", created)

# Read it back
print("Read", call("GET", f"/{created['id']}"))

# List the newest records (limit, offset, orderBy, order)
records = call("GET", "${LIST_QUERY}")
print(f"Listed {len(records)} records")

# Change the fields sent (PUT replaces every field instead)
${patchCall}${patch}))

# Delete it
print(call("DELETE", f"/{created['id']}"))
`;
}

/** curlExample is the table's example as shell commands; the record's id is read from the create's answer. */
export function curlExample({ name, schema, origin }: ExampleTable): string {
  const auth = '-H "Authorization: Bearer $BASALT_API_KEY"';
  const json = '-H "Content-Type: application/json"';
  return `# The record API of "${name}" with curl, in a POSIX shell (bash, zsh).
# Paste it into a terminal, or save it as records.sh and run \`sh records.sh\`.
# Paste an API key from the API page.
BASALT_API_KEY=${shellQuote(API_KEY_PLACEHOLDER)}
BASE_URL=${shellQuote(recordsUrl(origin, name))}

# Create a record: the answer is the new record, with its id first
RECORD=$(curl -sS -X POST "$BASE_URL" \\
  ${auth} \\
  ${json} \\
  -d ${curlJson(sampleRecord(schema))})
echo "Created $RECORD"
RECORD_ID=$(echo "$RECORD" | sed -n 's/^{"id":\\([0-9]*\\).*/\\1/p')

# Read it back
curl -sS -w '\\n' "$BASE_URL/$RECORD_ID" ${auth}

# List the newest records (limit, offset, orderBy, order)
curl -sS -w '\\n' "$BASE_URL${LIST_QUERY}" ${auth}

# Change the fields sent (PUT replaces every field instead)
curl -sS -w '\\n' -X PATCH "$BASE_URL/$RECORD_ID" \\
  ${auth} \\
  ${json} \\
  -d ${curlJson(samplePatch(schema))}

# Delete it
curl -sS -w '\\n' -X DELETE "$BASE_URL/$RECORD_ID" ${auth}
`;
}

/** EXAMPLE_LANGUAGES are the Examples tab's languages, in order. */
export const EXAMPLE_LANGUAGES = [
  { id: 'javascript', label: 'JavaScript', fileName: 'records.mjs', generate: javascriptExample },
  { id: 'python', label: 'Python', fileName: 'records.py', generate: pythonExample },
  { id: 'curl', label: 'cURL', fileName: 'records.sh', generate: curlExample },
] as const;
