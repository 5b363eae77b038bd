import type { ReactNode } from 'react';

/**
 * DocText shows a description from a document as text, with `backtick` spans as code. Nothing else is
 * interpreted: a generated OpenAPI description is data, never markup.
 */
export function DocText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let offset = 0;
  for (const part of text.split(/(`[^`\n]+`)/)) {
    parts.push(
      /^`[^`\n]+`$/.test(part) ? (
        <code key={offset} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em] text-foreground">
          {part.slice(1, -1)}
        </code>
      ) : (
        part
      ),
    );
    offset += part.length;
  }
  return <>{parts}</>;
}
