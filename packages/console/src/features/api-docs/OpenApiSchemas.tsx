import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DocText } from './DocText';
import { FieldList } from './FieldList';
import type { OpenApiDocument } from './openapi-document';
import { derefSchema, schemaFields, schemaLabel } from './openapi-reading';

/** OpenApiSchemas lists the document's component schemas (a table's record, its input…) with their fields. */
export function OpenApiSchemas({ document }: { document: OpenApiDocument }) {
  const schemas = Object.entries(document.components?.schemas ?? {});
  if (schemas.length === 0) return null;
  return (
    <Card className="overflow-hidden">
      <CardHeader>
        <CardTitle>Schemas</CardTitle>
        <CardDescription>The shapes the operations above send and answer.</CardDescription>
      </CardHeader>
      <Accordion type="multiple" aria-label="Schemas" className="border-t">
        {schemas.map(([name, schema]) => {
          const fields = schemaFields(document, schema);
          const resolved = derefSchema(document, schema);
          const description = typeof resolved === 'object' ? resolved.description : undefined;
          return (
            <AccordionItem key={name} value={name}>
              <AccordionTrigger>
                <span className="grid min-w-0 gap-0.5">
                  <code className="font-mono break-all">{name}</code>
                  <span className="text-xs font-normal text-muted-foreground">{schemaLabel(document, schema)}</span>
                </span>
              </AccordionTrigger>
              <AccordionContent className="grid grid-cols-1 gap-3">
                {description && (
                  <p className="whitespace-pre-line text-muted-foreground">
                    <DocText text={description} />
                  </p>
                )}
                {fields.length > 0 ? (
                  <FieldList label={`Fields of ${name}`} fields={fields} />
                ) : (
                  <p className="text-muted-foreground">No properties.</p>
                )}
              </AccordionContent>
            </AccordionItem>
          );
        })}
      </Accordion>
    </Card>
  );
}
