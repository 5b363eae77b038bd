import type { TableResponse } from '@basalt/shared';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CodeSample } from './CodeSample';
import { tableQueryExamples } from './table-api-examples';

/** TableQueryExamples is the Table API page's Examples tab for one table: paging, sorting, filtering, adding. */
export function TableQueryExamples({ table, origin }: { table: TableResponse; origin: string }) {
  return (
    <div className="grid grid-cols-1 gap-4">
      {tableQueryExamples(table.name, table.schema, origin).map((example) => (
        <Card key={example.id} className="min-w-0">
          <CardHeader>
            <CardTitle>{example.title}</CardTitle>
            <CardDescription>{example.description}</CardDescription>
          </CardHeader>
          <CardContent>
            <CodeSample label={`${example.title} example`} title="cURL" code={example.code} />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
