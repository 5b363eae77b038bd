import { ChevronDown, Search } from 'lucide-react';
import { Accordion } from 'radix-ui';
import { useState } from 'react';
import { Input } from '@/components/ui/input';
import { searchGlossary } from './glossary';

/** Glossary is a searchable list of plain-language explanations; each term expands to its details. */
export function Glossary() {
  const [query, setQuery] = useState('');
  const entries = searchGlossary(query);
  return (
    <section aria-labelledby="glossary-heading" className="grid gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <h3 id="glossary-heading" className="text-sm font-semibold">
          Glossary
        </h3>
        <div className="relative sm:w-56">
          <Search aria-hidden className="absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            aria-label="Search the glossary"
            placeholder="Search terms…"
            className="h-8 pl-8"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      </div>
      {entries.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">
          No terms match “{query}”.
        </p>
      ) : (
        <Accordion.Root type="multiple" className="divide-y rounded-lg border">
          {entries.map((entry) => (
            <Accordion.Item key={entry.id} value={entry.id}>
              <Accordion.Header>
                <Accordion.Trigger className="group flex w-full items-start justify-between gap-3 px-3 py-2.5 text-left outline-none hover:bg-accent/60 focus-visible:bg-accent">
                  <span>
                    <span className="block text-sm font-medium">{entry.title}</span>
                    <span className="block text-xs text-muted-foreground">{entry.simple}</span>
                  </span>
                  <ChevronDown
                    aria-hidden
                    className="mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform group-data-[state=open]:rotate-180"
                  />
                </Accordion.Trigger>
              </Accordion.Header>
              <Accordion.Content className="px-3 pb-3 text-sm text-muted-foreground">{entry.details}</Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      )}
    </section>
  );
}
