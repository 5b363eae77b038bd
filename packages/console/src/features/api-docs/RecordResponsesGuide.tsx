import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { CodeSample } from './CodeSample';
import { jsonText } from './code-literals';
import { FieldList } from './FieldList';
import { STATUS_CODES } from './status-codes';

const LIST_HEADERS = [
  { name: 'X-Total-Count', description: 'How many records match the filters, over all pages.' },
  { name: 'X-Page-Limit', description: 'The limit this page used.' },
  { name: 'X-Page-Offset', description: 'The offset this page started at.' },
];

const ERROR_FIELDS = [
  { name: 'code', type: 'string', description: 'What went wrong, for programs: MISSING_FIELD, RECORD_NOT_FOUND…' },
  { name: 'message', type: 'string', description: 'What went wrong, for people.' },
  {
    name: 'details',
    type: 'object | null',
    description: 'For a refused body: each field with its messages. Otherwise null.',
  },
];

/** StatusBadge is a status code, green for success and red for an error. */
export function StatusBadge({ status, className }: { status: number; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex h-fit w-12 shrink-0 justify-center rounded-md px-1.5 py-0.5 font-mono text-xs font-semibold',
        status < 400 ? 'bg-primary/12 text-primary' : 'bg-destructive/12 text-destructive',
        className,
      )}
    >
      {status}
    </span>
  );
}

/** RecordResponsesGuide is the Record API page's Responses tab: what success and each error look like. */
export function RecordResponsesGuide() {
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Successful responses</CardTitle>
          <CardDescription>
            Reads and updates answer 200 with the record (a list answers an array), a create answers 201 with the new
            record, and a delete answers 200 with a confirmation. Lists also send these headers:
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          <FieldList label="List headers" fields={LIST_HEADERS} />
          <CodeSample
            label="delete response"
            title="Response: 200 (DELETE)"
            code={jsonText({ success: true, message: 'Record deleted successfully' })}
          />
        </CardContent>
      </Card>
      <Card className="overflow-hidden">
        <CardHeader>
          <CardTitle>Status codes and errors</CardTitle>
          <CardDescription>
            Every error answers{' '}
            <code className="font-mono text-[13px]">{'{"error": {"code", "message", "details"}}'}</code>:
          </CardDescription>
        </CardHeader>
        <CardContent className="pb-4 sm:pb-4">
          <FieldList label="Error body" fields={ERROR_FIELDS} />
        </CardContent>
        <Accordion type="multiple" aria-label="Status codes" className="border-t">
          {STATUS_CODES.map((code) => (
            <AccordionItem key={code.status} value={String(code.status)}>
              <AccordionTrigger>
                <StatusBadge status={code.status} />
                <span className="grid min-w-0 gap-0.5">
                  <span>{code.title}</span>
                  <span className="text-xs font-normal text-muted-foreground">{code.meaning}</span>
                </span>
              </AccordionTrigger>
              <AccordionContent>
                <CodeSample
                  label={`${code.status} response`}
                  title={`Response: ${code.status}`}
                  code={jsonText(code.example)}
                />
              </AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </Card>
    </div>
  );
}
