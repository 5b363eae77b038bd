import type { TableResponse } from '@basalt/shared';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Card } from '@/components/ui/card';
import { CodeSample } from './CodeSample';
import { jsonText } from './code-literals';
import { MethodBadge } from './EndpointList';
import { DocSection, type FieldDoc, FieldList } from './FieldList';
import { PathText } from './PathText';
import { type RecordEndpointDoc, recordEndpointDocs } from './record-api-endpoints';
import { userColumns } from './record-samples';

function bodyFields(table: TableResponse, endpoint: RecordEndpointDoc): FieldDoc[] {
  // PATCH sends any of the fields; POST and PUT must include the required ones.
  const partial = endpoint.id === 'update';
  return userColumns(table.schema).map(([name, column]) => ({
    name,
    type: column.type,
    required: !partial && column.required,
    tags: column.unique ? ['unique'] : [],
  }));
}

function responseText(endpoint: RecordEndpointDoc): string {
  const headers = Object.entries(endpoint.response.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  const body = jsonText(endpoint.response.body);
  return headers.length > 0 ? `${headers.join('\n')}\n\n${body}` : body;
}

/** RecordEndpointsAccordion is the Record API page's Records tab for one table: one section per endpoint. */
export function RecordEndpointsAccordion({ table, origin }: { table: TableResponse; origin: string }) {
  const endpoints = recordEndpointDocs(table.name, table.schema, origin);
  return (
    <Card className="overflow-hidden">
      <Accordion type="multiple" defaultValue={['list']} aria-label={`Endpoints of ${table.name}`}>
        {endpoints.map((endpoint) => (
          <AccordionItem key={endpoint.id} value={endpoint.id}>
            <AccordionTrigger>
              <MethodBadge method={endpoint.method} />
              <span className="grid min-w-0 gap-0.5">
                <span>{endpoint.title}</span>
                <code className="font-mono text-xs font-normal wrap-anywhere text-muted-foreground">
                  <PathText path={endpoint.path} />
                </code>
              </span>
            </AccordionTrigger>
            <AccordionContent className="grid grid-cols-1 gap-4">
              <p className="text-muted-foreground">{endpoint.description}</p>
              {endpoint.parameters.length > 0 && (
                <DocSection title="Parameters">
                  <FieldList
                    label={`Parameters of ${endpoint.title}`}
                    fields={endpoint.parameters.map((p) => ({
                      name: p.name,
                      tags: [p.where],
                      description: p.description,
                    }))}
                  />
                </DocSection>
              )}
              {endpoint.body && (
                <DocSection title="Body (JSON)">
                  {userColumns(table.schema).length > 0 ? (
                    <FieldList label={`Body of ${endpoint.title}`} fields={bodyFields(table, endpoint)} />
                  ) : (
                    <p className="text-muted-foreground">No fields of its own yet: send {'{}'}.</p>
                  )}
                  <p className="text-xs text-muted-foreground">id, created_at and updated_at are set by the server.</p>
                </DocSection>
              )}
              <DocSection title="Example">
                <CodeSample label={`${endpoint.title} request`} title="Request (cURL)" code={endpoint.curl} />
                <CodeSample
                  label={`${endpoint.title} response`}
                  title={`Response: ${endpoint.response.status}`}
                  code={responseText(endpoint)}
                />
              </DocSection>
            </AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>
    </Card>
  );
}
