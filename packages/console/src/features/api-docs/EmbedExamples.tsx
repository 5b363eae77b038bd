import type { TableResponse } from '@basalt/shared';
import { Link2 } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CodeSample } from './CodeSample';
import { embedExamples } from './embed-examples';

/**
 * EmbedExamples shows how to read related rows in one call, with the account's own reference columns (nothing when
 * it has none): the API page's Documentation tab and the /documentation guide.
 */
export function EmbedExamples({ tables, url }: { tables: readonly TableResponse[]; url: string }) {
  const examples = embedExamples(tables, url);
  if (examples.length === 0) return null;
  return (
    <Card data-testid="embed-examples">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Link2 className="size-4" aria-hidden />
          Related rows in one call
        </CardTitle>
        <CardDescription>
          A reference column lets a read embed the row it points at, or the rows that point back, as PostgREST does. The
          access rules of every table hold inside the embed.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {examples.map((example) => (
          <div key={example.title} className="grid gap-2">
            <h3 className="font-mono text-sm">{example.title}</h3>
            <CodeSample label={`${example.title} embedding example`} title="supabase-js" code={example.js} />
            <CodeSample label={`${example.title} embedding request`} title="cURL" code={example.curl} />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
