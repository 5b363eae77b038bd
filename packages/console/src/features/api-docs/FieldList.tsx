import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { DocText } from './DocText';

/** FieldDoc is one documented field or parameter: its name, type and what it is for. */
export interface FieldDoc {
  name: string;
  type?: string;
  required?: boolean;
  /** tags are small labels after the type (path, query, unique…). */
  tags?: readonly string[];
  description?: string;
}

/** FieldList lists fields or parameters one per row; it stacks on phones instead of scrolling sideways. */
export function FieldList({ fields, label }: { fields: readonly FieldDoc[]; label: string }) {
  return (
    <ul aria-label={label} className="divide-y rounded-lg border">
      {fields.map((field) => (
        <li key={field.name} className="grid gap-1 px-3 py-2.5">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <code className="font-mono text-[13px] font-semibold break-all">{field.name}</code>
            {field.type && <code className="font-mono text-xs break-all text-muted-foreground">{field.type}</code>}
            {field.required && <Badge variant="warning">required</Badge>}
            {field.tags?.map((tag) => (
              <Badge key={tag} variant="secondary">
                {tag}
              </Badge>
            ))}
          </div>
          {field.description && (
            <p className="text-sm text-muted-foreground">
              <DocText text={field.description} />
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** DocSection is a small titled part of an endpoint's documentation (Parameters, Body, Responses…). */
export function DocSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h4 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h4>
      {children}
    </section>
  );
}
