import { Badge } from '@/components/ui/badge';
import { CodeSample } from './CodeSample';
import { DocText } from './DocText';
import { DocSection, FieldList } from './FieldList';
import type { OpenApiDocument } from './openapi-document';
import {
  jsonContent,
  type MediaContent,
  type OperationEntry,
  parameterRows,
  responsesOf,
  schemaFields,
  schemaLabel,
} from './openapi-reading';
import { StatusBadge } from './RecordResponsesGuide';

/** ContentSchema shows a body's media type and schema: its properties when it is an object, else its type. */
function ContentSchema({
  document,
  content,
  label,
}: {
  document: OpenApiDocument;
  content: MediaContent;
  label: string;
}) {
  const fields = content.schema === undefined ? [] : schemaFields(document, content.schema);
  return (
    <div className="grid gap-2">
      <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <Badge variant="outline" className="font-mono font-normal">
          {content.mediaType}
        </Badge>
        {content.schema !== undefined && (
          <code className="font-mono break-all">{schemaLabel(document, content.schema)}</code>
        )}
      </p>
      {fields.length > 0 && <FieldList label={label} fields={fields} />}
      {content.example !== undefined && (
        <CodeSample label={`${label} example`} title="Example" code={JSON.stringify(content.example, null, 2)} />
      )}
    </div>
  );
}

/** OpenApiOperationDetails is the body of one operation: parameters, request body and responses. */
export function OpenApiOperationDetails({ document, entry }: { document: OpenApiDocument; entry: OperationEntry }) {
  const { operation, parameters, requestBody } = entry;
  const body = jsonContent(requestBody?.content);
  const name = operation.summary ?? `${entry.method.toUpperCase()} ${entry.path}`;
  return (
    <div className="grid grid-cols-1 gap-4">
      {operation.description && (
        <p className="whitespace-pre-line text-muted-foreground">
          <DocText text={operation.description} />
        </p>
      )}
      {parameters.length > 0 && (
        <DocSection title="Parameters">
          <FieldList
            label={`Parameters of ${name}`}
            fields={parameterRows(document, parameters).map((row) => ({
              name: row.names.join(', '),
              ...(row.type ? { type: row.type } : {}),
              required: row.required,
              tags: row.in ? [row.in] : [],
              ...(row.description ? { description: row.description } : {}),
            }))}
          />
        </DocSection>
      )}
      {body && (
        <DocSection title={requestBody?.required ? 'Request body (required)' : 'Request body'}>
          {requestBody?.description && (
            <p className="text-muted-foreground">
              <DocText text={requestBody.description} />
            </p>
          )}
          <ContentSchema document={document} content={body} label={`Request body of ${name}`} />
        </DocSection>
      )}
      <DocSection title="Responses">
        <ul aria-label={`Responses of ${name}`} className="divide-y rounded-lg border">
          {responsesOf(document, operation).map((response) => (
            <li key={response.status} className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 px-3 py-2.5">
              {/^\d+$/.test(response.status) ? (
                <StatusBadge status={Number(response.status)} className="mt-px self-start" />
              ) : (
                <Badge variant="outline" className="mt-px w-12 justify-center self-start">
                  {response.status}
                </Badge>
              )}
              <div className="grid min-w-0 gap-1">
                <p className="text-sm">
                  <DocText text={response.description} />
                </p>
                {response.content?.schema !== undefined && (
                  <code className="font-mono text-xs break-all text-muted-foreground">
                    {schemaLabel(document, response.content.schema)}
                  </code>
                )}
                {response.headers.length > 0 && (
                  <p className="text-xs text-muted-foreground">
                    Headers: <code className="font-mono break-all">{response.headers.join(', ')}</code>
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      </DocSection>
    </div>
  );
}
