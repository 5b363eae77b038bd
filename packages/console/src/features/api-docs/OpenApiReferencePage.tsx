import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Download } from 'lucide-react';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { LoadErrorState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { downloadTextFile } from '@/lib/download';
import { fetchTypesFile, type OpenApiFile, TYPES_FILE_NAME, useOpenApiQuery } from './api-docs.queries';
import { NoTablesState } from './DocsTablesGate';
import { DocText } from './DocText';
import { MethodBadge } from './EndpointList';
import { OpenApiOperationDetails } from './OpenApiOperationDetails';
import { OpenApiSchemas } from './OpenApiSchemas';
import { methodLabel, operationGroups, securityLines } from './openapi-reading';
import { PathText } from './PathText';

/** OPENAPI_FILE_NAME is the name the document downloads as. */
export const OPENAPI_FILE_NAME = 'openapi.json';

// The supabase-js types are fetched when asked for: generated from the tables, they change with them.
function DownloadTypesButton() {
  const download = useMutation({
    mutationFn: fetchTypesFile,
    onSuccess: (text) => downloadTextFile(text, TYPES_FILE_NAME),
  });
  return (
    <div className="grid gap-1">
      <Button
        size="sm"
        variant="outline"
        className="w-fit"
        disabled={download.isPending}
        onClick={() => download.mutate()}
      >
        <Download />
        Download {TYPES_FILE_NAME}
      </Button>
      {download.isError && (
        <p role="alert" className="text-sm text-destructive">
          Could not generate the types; try again.
        </p>
      )}
    </div>
  );
}

function OverviewCard({ file }: { file: OpenApiFile }) {
  const { document } = file;
  const security = securityLines(document);
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle className="flex flex-wrap items-center gap-2">
            <span className="break-words">{document.info.title}</span>
            <Badge variant="secondary">v{document.info.version}</Badge>
            <Badge variant="outline">OpenAPI {document.openapi}</Badge>
          </CardTitle>
          {document.info.description && (
            <CardDescription className="whitespace-pre-line">
              <DocText text={document.info.description} />
            </CardDescription>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" className="w-fit" onClick={() => downloadTextFile(file.text, OPENAPI_FILE_NAME)}>
            <Download />
            Download openapi.json
          </Button>
          <DownloadTypesButton />
        </div>
      </CardHeader>
      {(document.servers?.length || security.length > 0) && (
        <CardContent className="grid grid-cols-1 gap-3 text-sm">
          {document.servers?.map((server) => (
            <div key={server.url} className="flex min-w-0 items-center gap-2">
              <span className="shrink-0 text-muted-foreground">Server</span>
              <code className="min-w-0 font-mono text-[13px] break-all">{server.url}</code>
              <CopyButton value={server.url} label={`Copy server URL ${server.url}`} variant="ghost" />
            </div>
          ))}
          {security.map((line) => (
            <div key={line} className="flex min-w-0 items-center gap-2">
              <span className="shrink-0 text-muted-foreground">Auth</span>
              <code className="min-w-0 font-mono text-[13px] wrap-anywhere">{line}</code>
            </div>
          ))}
        </CardContent>
      )}
    </Card>
  );
}

function ReferenceBody({ file }: { file: OpenApiFile }) {
  const { document } = file;
  const groups = operationGroups(document);
  return (
    <div className="grid grid-cols-1 gap-6">
      <OverviewCard file={file} />
      {groups.length === 0 && (
        <Card>
          <NoTablesState
            title="No endpoints yet"
            description="The reference lists the endpoints of your tables. Create a table to see its endpoints here."
          />
        </Card>
      )}
      {groups.map((group) => (
        <Card key={group.name} className="overflow-hidden">
          <CardHeader>
            <CardTitle className="break-words">{group.name}</CardTitle>
            {group.description && (
              <CardDescription>
                <DocText text={group.description} />
              </CardDescription>
            )}
          </CardHeader>
          <Accordion type="multiple" aria-label={`Operations of ${group.name}`} className="border-t">
            {group.operations.map((entry) => (
              <AccordionItem key={entry.id} value={entry.id}>
                <AccordionTrigger>
                  <MethodBadge method={methodLabel(entry.method)} />
                  <span className="grid min-w-0 gap-0.5">
                    <span>{entry.operation.summary ?? entry.path}</span>
                    <code className="font-mono text-xs font-normal wrap-anywhere text-muted-foreground">
                      <PathText path={entry.path} />
                    </code>
                  </span>
                  {entry.operation.deprecated && <Badge variant="warning">deprecated</Badge>}
                </AccordionTrigger>
                <AccordionContent>
                  <OpenApiOperationDetails document={document} entry={entry} />
                </AccordionContent>
              </AccordionItem>
            ))}
          </Accordion>
        </Card>
      ))}
      <OpenApiSchemas document={document} />
    </div>
  );
}

/** OpenApiReferencePage is /record-api/reference: the caller's OpenAPI document, readable and downloadable. */
export function OpenApiReferencePage() {
  const reference = useOpenApiQuery();
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="OpenAPI reference"
        description="Your record API as an OpenAPI 3.1 document, generated from your tables. Import it into Postman, Insomnia or a client generator."
        actions={
          <LinkButton to="/record-api" icon={ArrowLeft}>
            Record API
          </LinkButton>
        }
      />
      {reference.isPending ? (
        <div role="status" aria-label="Loading the OpenAPI document" className="grid grid-cols-1 gap-4">
          <Skeleton className="h-28 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : reference.isError ? (
        <Card>
          <LoadErrorState
            title="Failed to load the OpenAPI document"
            error={reference.error}
            onRetry={() => void reference.refetch()}
            retrying={reference.isFetching}
          />
        </Card>
      ) : (
        <ReferenceBody file={reference.data} />
      )}
    </div>
  );
}
