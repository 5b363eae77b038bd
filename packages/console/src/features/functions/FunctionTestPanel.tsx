import { type EdgeFunction, type FunctionTestResult, TEST_METHODS } from '@basalt/shared';
import { Play } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-errors';
import { FunctionLogLines } from './FunctionLogLines';
import { useTestEdgeFunctionMutation } from './functions.queries';

// Sends one request to the deployed version (method, headers as JSON, body) and shows the status, the headers,
// the body and what the function logged, with its time, CPU and memory.

function parseHeaders(text: string): Record<string, string> | string {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    }
  } catch {
    // Reported below.
  }
  return 'Headers must be a JSON object, for example {"Content-Type": "application/json"}';
}

function statusVariant(status: number) {
  return status >= 500 ? 'destructive' : status >= 400 ? 'warning' : 'default';
}

function Result({ result }: { result: FunctionTestResult }) {
  return (
    <div className="grid gap-3" aria-live="polite">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge variant={statusVariant(result.status)}>{result.status}</Badge>
        {result.error && <Badge variant="destructive">{result.error}</Badge>}
        <span className="text-muted-foreground">
          {result.durationMs} ms · {result.cpuMs} ms CPU · {result.memoryMb} MB
        </span>
      </div>
      <div className="grid gap-1">
        <p className="text-xs font-medium text-muted-foreground">Headers</p>
        <pre className="max-h-28 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs">
          {Object.entries(result.headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join('\n') || '(none)'}
        </pre>
      </div>
      <div className="grid gap-1">
        <p className="text-xs font-medium text-muted-foreground">Body</p>
        <pre className="max-h-48 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs break-all whitespace-pre-wrap">
          {result.body || '(empty)'}
        </pre>
      </div>
      <div className="grid gap-1">
        <p className="text-xs font-medium text-muted-foreground">Logs</p>
        <FunctionLogLines logs={result.logs} />
      </div>
    </div>
  );
}

/** FunctionTestPanel calls the deployed version of a function from the console. */
export function FunctionTestPanel({ fn }: { fn: EdgeFunction }) {
  const test = useTestEdgeFunctionMutation(fn.id);
  const [method, setMethod] = useState<(typeof TEST_METHODS)[number]>('POST');
  const [headers, setHeaders] = useState('{"Content-Type": "application/json"}');
  const [body, setBody] = useState('{"name": "Basalt"}');
  const [problem, setProblem] = useState<string | null>(null);
  if (fn.deployedVersion === null) {
    return <p className="py-6 text-center text-sm text-muted-foreground">Deploy the function before testing it.</p>;
  }
  const send = () => {
    const parsed = parseHeaders(headers);
    if (typeof parsed === 'string') return setProblem(parsed);
    setProblem(null);
    test.mutate({ method, headers: parsed, body: method === 'GET' ? '' : body });
  };
  return (
    <div className="grid gap-4">
      <div className="grid items-start gap-3 sm:grid-cols-[8rem_1fr]">
        <FormField id="test-method" label="Method">
          <NativeSelect id="test-method" value={method} onChange={(e) => setMethod(e.target.value as typeof method)}>
            {TEST_METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="test-headers" label="Headers (JSON)" error={problem ?? undefined}>
          <Textarea
            id="test-headers"
            rows={2}
            className="font-mono text-xs"
            value={headers}
            onChange={(e) => setHeaders(e.target.value)}
          />
        </FormField>
      </div>
      <FormField id="test-body" label="Body">
        <Textarea
          id="test-body"
          rows={4}
          className="font-mono text-xs"
          value={body}
          disabled={method === 'GET'}
          onChange={(e) => setBody(e.target.value)}
        />
      </FormField>
      <div className="flex items-center gap-3">
        <Button onClick={send} disabled={test.isPending}>
          <Play />
          {test.isPending ? 'Sending...' : 'Send request'}
        </Button>
        <span className="truncate font-mono text-xs text-muted-foreground">
          {method} {fn.route} · version {fn.deployedVersion}
        </span>
      </div>
      {test.isError && <p className="text-sm text-destructive">{errorMessage(test.error)}</p>}
      {test.data && <Result result={test.data} />}
    </div>
  );
}
